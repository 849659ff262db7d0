// FirstPromoter as an import source (docs/migrating.md#firstpromoter): its v1 REST API
// (https://docs.firstpromoter.com/api-reference-v1), the key in the `x-api-key` header, JSON arrays
// paged with `page`, the next page named by the `Link: <...>; rel="next"` response header. Reads
// /promoters/list (each promotion's `ref_id` is a `?fpr=` / `?via=` token, its `promo_code` a
// coupon), /leads/list and /rewards/list; only documented fields are read.
import type { AffiliateStatus } from '../../core/model/types.js'
import { baseUrl, getJson, minorUnits, type ToolLimits } from '../http-json.js'
import { pageGuard } from '../paging.js'
import { ImportSourceError, type ImportSource, type SourceCommissionState } from '../source.js'

export const FIRSTPROMOTER_API_URL = 'https://firstpromoter.com/api/v1'

export interface FirstPromoterSourceOptions {
  apiKey: string
  /** Base URL including the version prefix. @default https://firstpromoter.com/api/v1 */
  apiUrl?: string | undefined
  onRetry?: ((message: string) => void) | undefined
  /** Size cap and timeouts of each call (docs/migrating.md "A broken or hostile API"). */
  limits?: ToolLimits | undefined
}

interface FpPromotion { id: number; status?: string | null; ref_id?: string | null; promo_code?: string | null; campaign_name?: string | null }
interface FpPromoter {
  id: number
  email: string
  profile?: { first_name?: string | null; last_name?: string | null; paypal_email?: string | null } | null
  promotions?: FpPromotion[]
}
interface FpLead { id: number; state?: string | null; email?: string | null; uid?: string | null; customer_since?: string | null; promoter?: { id: number } | null }
interface FpReward {
  id: number
  status: string
  amount: number | string
  unit?: string | null
  created_at: string
  conversion_amount?: number | string | null
  lead?: { email?: string | null } | null
  promoter?: { id: number } | null
}

/** A promoter's status is its first promotion's; any other reads as pending. */
const PROMOTION_STATUS: Record<string, AffiliateStatus> = { active: 'active', inactive: 'inactive', offer_inactive: 'inactive', blocked: 'blocked', denied: 'blocked' }
const REWARD_STATE: Record<string, SourceCommissionState> = { pending: 'pending', approved: 'due', paid: 'paid', denied: 'voided', rejected: 'voided' }

export function firstPromoterSource(options: FirstPromoterSourceOptions): ImportSource {
  const base = baseUrl(options.apiUrl ?? FIRSTPROMOTER_API_URL, 'FirstPromoter')
  const request = { tool: 'FirstPromoter', headers: { 'x-api-key': options.apiKey }, keyHint: 'use the API key from Settings → Integrations', onRetry: options.onRetry, origin: new URL(base).origin, limits: options.limits }

  async function* list<T>(path: string): AsyncIterable<T> {
    let url: URL | null = new URL(`${base}${path}`)
    url.searchParams.set('page', '1')
    const guard = pageGuard('FirstPromoter', path, (message) => new ImportSourceError(message))
    for (let page = 1; url; page += 1) {
      const { body, headers }: { body: unknown; headers: Headers } = await getJson(url, `${path} page ${page}`, request)
      if (!Array.isArray(body)) throw new ImportSourceError(`FirstPromoter answered ${path} page ${page} with something other than a list`)
      const next: string | undefined = headers.get('link')?.match(/<([^>]+)>\s*;\s*rel="?next"?/)?.[1]
      // A next link to another origin is refused by getJson before anything is sent there.
      const following: URL | null = next ? new URL(next, url) : null
      yield* guard.fresh(page, body as T[], following !== null)
      if (following && following.href === url.href) throw new ImportSourceError(`FirstPromoter's next page on ${path} does not move forward`)
      url = following
    }
  }

  return {
    name: 'firstpromoter',
    async *affiliates() {
      for await (const promoter of list<FpPromoter>('/promoters/list')) {
        const name = [promoter.profile?.first_name, promoter.profile?.last_name].filter((part) => part).join(' ')
        const promotions = promoter.promotions ?? []
        yield {
          sourceId: String(promoter.id),
          email: promoter.email,
          name: name === '' ? null : name,
          status: PROMOTION_STATUS[promotions[0]?.status ?? 'active'] ?? 'pending',
          paypalEmail: promoter.profile?.paypal_email || null,
          tokens: promotions.map((promotion) => promotion.ref_id).filter((token): token is string => typeof token === 'string' && token !== ''),
          group: promotions[0]?.campaign_name ?? null,
        }
      }
    },
    async *coupons() {
      for await (const promoter of list<FpPromoter>('/promoters/list')) {
        for (const promotion of promoter.promotions ?? []) {
          if (promotion.promo_code) yield { sourceId: `promotion-${promotion.id}`, affiliateSourceId: String(promoter.id), code: promotion.promo_code, providerCouponId: null }
        }
      }
    },
    async *customers() {
      for await (const lead of list<FpLead>('/leads/list')) {
        yield {
          sourceId: String(lead.id),
          affiliateSourceId: lead.promoter ? String(lead.promoter.id) : '',
          email: lead.email || null,
          // Lead states: signup, active, cancelled (a customer who left still paid once).
          converted: lead.state === 'active' || lead.state === 'cancelled' || lead.customer_since != null,
          providerCustomerId: lead.uid ?? null,
          firstPurchaseAt: lead.customer_since ? new Date(lead.customer_since) : null,
        }
      }
    },
    async *commissions() {
      for await (const reward of list<FpReward>('/rewards/list')) {
        // Non-cash rewards (points, free months, credits) are not money: nothing to import.
        if (reward.unit && reward.unit !== 'cash') continue
        yield {
          sourceId: String(reward.id),
          affiliateSourceId: reward.promoter ? String(reward.promoter.id) : '',
          customerEmail: reward.lead?.email || null,
          amountMinor: minorUnits(reward.amount),
          // FirstPromoter's rewards carry no currency: the account's (docs/migrating.md#firstpromoter).
          currency: null,
          state: REWARD_STATE[reward.status] ?? 'pending',
          occurredAt: new Date(reward.created_at),
          saleAmountMinor: reward.conversion_amount == null ? null : minorUnits(reward.conversion_amount),
          saleCurrency: null,
        }
      }
    },
  }
}
