// Tolt as an import source (docs/migrating.md#tolt): its v1 REST API (https://docs.tolt.com),
// Bearer key, lists scoped by `program_id`, pages of `data` followed with `starting_after=<last
// id>` while `has_more`. Reads /partners, /links (`?ref=` tokens), /promotion-codes, /customers
// and /commissions; only documented fields are read.
import type { AffiliateStatus } from '../../core/model/types.js'
import { baseUrl, getJson, minorUnits, type ToolLimits } from '../http-json.js'
import { pageGuard } from '../paging.js'
import { ImportSourceError, type ImportSource, type SourceCommissionState } from '../source.js'

export const TOLT_API_URL = 'https://api.tolt.com/v1'

export interface ToltSourceOptions {
  apiKey: string
  /** The program to read (Tolt's lists require it): `prg_...`. */
  programId: string
  /** Base URL including the version prefix. @default https://api.tolt.com/v1 */
  apiUrl?: string | undefined
  onRetry?: ((message: string) => void) | undefined
  /** Size cap and timeouts of each call (docs/migrating.md "A broken or hostile API"). */
  limits?: ToolLimits | undefined
}

interface ToltPartner {
  id: string
  first_name?: string | null
  last_name?: string | null
  email: string
  status?: string | null
  payout_method?: string | null
  payout_details?: { email?: string | null } | null
  group?: { name?: string | null } | null
}
interface ToltLink { id: string; param?: string; value: string; partner_id: string }
interface ToltPromotionCode { id: string; code: string; partner_id: string; promotion_code_id?: string | null }
interface ToltCustomer { id: string; email?: string | null; customer_id?: string | null; partner_id: string; status?: string | null }
interface ToltCommission {
  id: string
  amount: number | string
  revenue?: number | string | null
  status: string
  created_at: string
  partner_id?: string | null
  partner?: { id: string } | null
  customer?: { email?: string | null; partner_id?: string | null } | null
}

/** Partner statuses; any other reads as pending (to approve by hand). */
const PARTNER_STATUS: Record<string, AffiliateStatus> = { active: 'active', suspended: 'inactive', rejected: 'blocked' }
/** Customer statuses of one who paid (Tolt's help: lead, trial, active, suspended, refunded). */
const CONVERTED = new Set(['active', 'suspended', 'refunded', 'paid'])
const COMMISSION_STATE: Record<string, SourceCommissionState> = { pending: 'pending', approved: 'due', paid: 'paid', rejected: 'voided', refunded: 'voided' }

export function toltSource(options: ToltSourceOptions): ImportSource {
  const base = baseUrl(options.apiUrl ?? TOLT_API_URL, 'Tolt')
  const request = { tool: 'Tolt', headers: { authorization: `Bearer ${options.apiKey}` }, keyHint: 'use the API key from Settings → Integrations', onRetry: options.onRetry, origin: new URL(base).origin, limits: options.limits }

  async function* list<T extends { id: string }>(path: string, extra: [string, string][] = []): AsyncIterable<T> {
    const guard = pageGuard('Tolt', path, (message) => new ImportSourceError(message))
    for (let after: string | null = null, page = 1; ; page += 1) {
      const url = new URL(`${base}${path}`)
      url.searchParams.set('program_id', options.programId)
      url.searchParams.set('limit', '100')
      for (const [key, value] of extra) url.searchParams.append(key, value)
      if (after) url.searchParams.set('starting_after', after)
      const { body } = await getJson(url, `${path} page ${page}`, request)
      const data = (body as { data?: unknown } | null)?.data
      if (!Array.isArray(data)) throw new ImportSourceError(`Tolt answered ${path} page ${page} without a data list`)
      const more = (body as { has_more?: boolean }).has_more === true
      yield* guard.fresh(page, data as T[], more)
      const last = (data as T[]).at(-1)?.id
      if (!more || last === undefined) return
      if (last === after) throw new ImportSourceError(`Tolt's cursor on ${path} does not move forward`)
      after = last
    }
  }

  return {
    name: 'tolt',
    async *affiliates() {
      const tokens = new Map<string, string[]>()
      for await (const link of list<ToltLink>('/links')) tokens.set(link.partner_id, [...(tokens.get(link.partner_id) ?? []), link.value])
      for await (const partner of list<ToltPartner>('/partners', [['expand[]', 'group']])) {
        const name = [partner.first_name, partner.last_name].filter((part) => part).join(' ')
        yield {
          sourceId: partner.id,
          email: partner.email,
          name: name === '' ? null : name,
          status: PARTNER_STATUS[partner.status ?? 'active'] ?? 'pending',
          paypalEmail: partner.payout_method === 'paypal' ? (partner.payout_details?.email ?? null) : null,
          tokens: tokens.get(partner.id) ?? [],
          group: partner.group?.name ?? null,
        }
      }
    },
    async *coupons() {
      for await (const code of list<ToltPromotionCode>('/promotion-codes')) {
        yield { sourceId: code.id, affiliateSourceId: code.partner_id, code: code.code, providerCouponId: code.promotion_code_id ?? null }
      }
    },
    async *customers() {
      for await (const customer of list<ToltCustomer>('/customers')) {
        yield {
          sourceId: customer.id,
          affiliateSourceId: customer.partner_id,
          email: customer.email || null,
          converted: CONVERTED.has(customer.status ?? ''),
          providerCustomerId: customer.customer_id ?? null,
        }
      }
    },
    async *commissions() {
      for await (const commission of list<ToltCommission>('/commissions', [['expand[]', 'customer'], ['expand[]', 'partner']])) {
        const revenue = commission.revenue == null ? null : minorUnits(commission.revenue)
        yield {
          sourceId: commission.id,
          affiliateSourceId: commission.partner_id ?? commission.partner?.id ?? commission.customer?.partner_id ?? '',
          customerEmail: commission.customer?.email || null,
          amountMinor: minorUnits(commission.amount),
          // Tolt's commissions carry no currency: the program's (docs/migrating.md#tolt).
          currency: null,
          state: COMMISSION_STATE[commission.status] ?? 'pending',
          occurredAt: new Date(commission.created_at),
          saleAmountMinor: revenue,
          saleCurrency: null,
        }
      }
    },
  }
}
