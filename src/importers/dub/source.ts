// Dub Partners as an import source (docs/migrating.md#dub): its REST API (https://dub.co/docs/api-reference),
// Bearer workspace key, JSON arrays paged with `page` / `pageSize` (100; a shorter page is the
// last). Reads /partners (each link's `key` is the token of `<domain>/<key>`, its `url` the
// destination, with its `utm_*` fields when Dub gives them), /customers and /commissions (sale
// commissions; `earnings` is the partner's commission, `amount` the sale).
import type { AffiliateStatus } from '../../core/model/types.js'
import { baseUrl, getJson, minorUnits, type ToolLimits } from '../http-json.js'
import { pageGuard } from '../paging.js'
import { ImportSourceError, type ImportSource, type SourceCommissionState, type SourceLink } from '../source.js'

export const DUB_API_URL = 'https://api.dub.co'

export interface DubSourceOptions {
  apiKey: string
  /** Base URL (Dub's paths have no version prefix). @default https://api.dub.co */
  apiUrl?: string | undefined
  onRetry?: ((message: string) => void) | undefined
  /** Objects a page (Dub allows 1 to 100). @default 100 */
  pageSize?: number | undefined
  /** Size cap and timeouts of each call (docs/migrating.md "A broken or hostile API"). */
  limits?: ToolLimits | undefined
}

interface DubPartner {
  id: string
  name?: string | null
  email?: string | null
  status?: string | null
  paypalEmail?: string | null
  links?: DubLink[] | null
}
interface DubLink {
  key?: string | null
  url?: string | null
  utm_source?: string | null
  utm_medium?: string | null
  utm_campaign?: string | null
  utm_term?: string | null
  utm_content?: string | null
}
interface DubCustomer { id: string; externalId?: string | null; email?: string | null; sales?: number | null; partner?: { id: string } | null }
interface DubCommission {
  id: string
  type?: string | null
  amount?: number | string | null
  earnings: number | string
  currency?: string | null
  status: string
  createdAt: string
  partner?: { id: string } | null
  customer?: { email?: string | null } | null
}

const PARTNER_STATUS: Record<string, AffiliateStatus> = { approved: 'active', pending: 'pending', banned: 'blocked', declined: 'blocked', archived: 'inactive', deactivated: 'inactive' }
const COMMISSION_STATE: Record<string, SourceCommissionState> = {
  pending: 'pending',
  processed: 'due',
  paid: 'paid',
  refunded: 'voided',
  duplicate: 'voided',
  fraud: 'voided',
  canceled: 'voided',
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** A Dub link as a token and its destination and UTM parameters; null without a key. */
function sourceLink(link: DubLink): SourceLink | null {
  const token = text(link.key)
  if (token === null) return null
  return {
    token,
    destination: text(link.url),
    utmSource: text(link.utm_source),
    utmMedium: text(link.utm_medium),
    utmCampaign: text(link.utm_campaign),
    utmTerm: text(link.utm_term),
    utmContent: text(link.utm_content),
  }
}

export function dubSource(options: DubSourceOptions): ImportSource {
  const base = baseUrl(options.apiUrl ?? DUB_API_URL, 'Dub')
  const pageSize = options.pageSize ?? 100
  const request = { tool: 'Dub', headers: { authorization: `Bearer ${options.apiKey}` }, keyHint: 'use a workspace API key (Settings → API Keys) with read access', onRetry: options.onRetry, origin: new URL(base).origin, limits: options.limits }

  async function* list<T>(path: string, extra: Record<string, string> = {}): AsyncIterable<T> {
    const guard = pageGuard('Dub', path, (message) => new ImportSourceError(message))
    for (let page = 1; ; page += 1) {
      const url = new URL(`${base}${path}`)
      url.searchParams.set('page', String(page))
      url.searchParams.set('pageSize', String(pageSize))
      for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value)
      const { body } = await getJson(url, `${path} page ${page}`, request)
      if (!Array.isArray(body)) throw new ImportSourceError(`Dub answered ${path} page ${page} with something other than a list`)
      yield* guard.fresh(page, body as T[], body.length >= pageSize)
      if (body.length < pageSize) return
    }
  }

  return {
    name: 'dub',
    async *affiliates() {
      for await (const partner of list<DubPartner>('/partners')) {
        yield {
          sourceId: partner.id,
          email: partner.email ?? '',
          name: partner.name || null,
          status: PARTNER_STATUS[partner.status ?? 'approved'] ?? 'pending',
          paypalEmail: partner.paypalEmail || null,
          tokens: (partner.links ?? []).map((link) => link.key).filter((key): key is string => typeof key === 'string' && key !== ''),
          links: (partner.links ?? []).map(sourceLink).filter((link): link is SourceLink => link !== null),
          group: null,
        }
      }
    },
    async *coupons() {},
    async *customers() {
      for await (const customer of list<DubCustomer>('/customers', { includeExpandedFields: 'true' })) {
        yield {
          sourceId: customer.id,
          affiliateSourceId: customer.partner?.id ?? '',
          email: customer.email || null,
          converted: (customer.sales ?? 0) > 0,
          providerCustomerId: customer.externalId ?? null,
        }
      }
    },
    async *commissions() {
      for await (const commission of list<DubCommission>('/commissions')) {
        // Click and lead commissions have no sale; they are imported like sales, with a zero sale amount.
        yield {
          sourceId: commission.id,
          affiliateSourceId: commission.partner?.id ?? '',
          customerEmail: commission.customer?.email || null,
          amountMinor: minorUnits(commission.earnings),
          currency: commission.currency ? commission.currency.toUpperCase() : null,
          state: COMMISSION_STATE[commission.status] ?? 'pending',
          occurredAt: new Date(commission.createdAt),
          saleAmountMinor: commission.amount == null ? null : minorUnits(commission.amount),
          saleCurrency: commission.currency ? commission.currency.toUpperCase() : null,
        }
      }
    },
  }
}
