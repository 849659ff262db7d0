// Local Tolt, FirstPromoter and Dub APIs: each tool's documented list endpoints, authentication
// and paging, serving fixtures written from the tools' published object shapes (docs.tolt.com v1,
// docs.firstpromoter.com api-reference-v1, dub.co/docs/api-reference), not this library's types.
// Tolt: Bearer key, `program_id` required, `{ success, has_more, data }` paged with
// `starting_after=<last id>`. FirstPromoter: `x-api-key`, JSON arrays paged with `page`, the next
// page in a `Link: <...>; rel="next"` header. Dub: Bearer key, JSON arrays paged with `page` and
// `pageSize` (a shorter page is the last).
import type { IncomingMessage } from 'node:http'
import { startFakeApi, type FakeApi } from './fake-api.js'

export type ToolName = 'tolt' | 'firstpromoter' | 'dub'

export const KEYS: Record<ToolName, string> = { tolt: 'tolt_key_123', firstpromoter: 'fp_key_123', dub: 'dub_key_123' }
export const TOLT_PROGRAM = 'prg_YRsbPDAKhWfdqJbFACheh'

// --- Tolt (v1) ---------------------------------------------------------------------------------
const toltPartner = (id: string, first: string, last: string, email: string, status: string, paypal: string | null, group: string) => ({
  id,
  first_name: first,
  last_name: last,
  email,
  company_name: 'Dunder Mifflin',
  program_id: TOLT_PROGRAM,
  organization_id: 'org_JE3mfYNL9ci7sFaJazAv2',
  group_id: `grp_${group}`,
  group: { id: `grp_${group}`, name: group },
  payout_method: paypal ? 'paypal' : 'none',
  payout_details: paypal ? { email: paypal } : {},
  country_code: 'US',
  created_at: '2025-01-13T10:06:11.251Z',
  status,
  custom_fields: [],
})
const toltCustomer = (id: string, email: string, partner: string, status: string) => ({
  id,
  email,
  name: email.split('@')[0],
  customer_id: `cus_${email.split('@')[0]}`,
  partner_id: partner,
  status,
  program_id: TOLT_PROGRAM,
  created_at: '2025-12-01T09:00:00.000Z',
})
const toltCustomers = [
  toltCustomer('cust_pam', 'pam@example.com', 'part_michael', 'active'),
  toltCustomer('cust_kevin', 'kevin@example.com', 'part_michael', 'lead'),
  toltCustomer('cust_oscar', 'oscar@example.com', 'part_dwight', 'active'),
  toltCustomer('cust_angela', 'angela@example.com', 'part_jim', 'active'),
]
const toltCommission = (id: string, partner: string, customer: string, amount: number | string, status: string, at: string, revenue: number) => ({
  id,
  amount,
  customer_id: customer,
  customer: toltCustomers.find((c) => c.id === customer),
  partner: { id: partner },
  transaction_id: `txn_${id}`,
  charge_id: `ch_${id}`,
  source: 'stripe',
  status,
  revenue,
  created_at: at,
  updated_at: at,
  program_id: TOLT_PROGRAM,
  organization_id: 'org_JE3mfYNL9ci7sFaJazAv2',
})
export const TOLT_LISTS: Record<string, unknown[]> = {
  '/v1/partners': [
    toltPartner('part_michael', 'Michael', 'Scott', 'michael@example.com', 'active', 'michael.paypal@example.com', 'Sales'),
    toltPartner('part_dwight', 'Dwight', 'Schrute', 'dwight@example.com', 'suspended', null, 'Sales'),
    toltPartner('part_jim', 'Jim', 'Halpert', 'jim@example.com', 'active', null, 'Sales'),
  ],
  '/v1/links': [
    { id: 'lnk_1', param: 'ref', value: 'michael', partner_id: 'part_michael', created_at: '2025-01-13T10:06:11.251Z', updated_at: '2025-01-13T10:06:11.251Z', program_id: TOLT_PROGRAM },
    { id: 'lnk_2', param: 'ref', value: 'mscott', partner_id: 'part_michael', created_at: '2025-01-13T10:06:11.251Z', updated_at: '2025-01-13T10:06:11.251Z', program_id: TOLT_PROGRAM },
    { id: 'lnk_3', param: 'ref', value: 'dwight', partner_id: 'part_dwight', created_at: '2025-01-13T10:06:11.251Z', updated_at: '2025-01-13T10:06:11.251Z', program_id: TOLT_PROGRAM },
    { id: 'lnk_4', param: 'ref', value: 'jim', partner_id: 'part_jim', created_at: '2025-01-13T10:06:11.251Z', updated_at: '2025-01-13T10:06:11.251Z', program_id: TOLT_PROGRAM },
  ],
  '/v1/promotion-codes': [{ id: 'promo_michael', code: 'MICHAEL20', partner_id: 'part_michael', program_id: TOLT_PROGRAM, created_at: '2025-01-13T10:06:11.251Z' }],
  '/v1/customers': toltCustomers,
  // Newest first, as Tolt orders by default; one amount as the string Tolt's newer responses use.
  '/v1/commissions': [
    toltCommission('comm_3', 'part_michael', 'cust_pam', 1500, 'pending', '2026-02-25T10:00:00.000Z', 5000),
    toltCommission('comm_5', 'part_michael', 'cust_pam', 0, 'refunded', '2026-02-15T10:00:00.000Z', 9999),
    toltCommission('comm_4', 'part_michael', 'cust_pam', 2500, 'rejected', '2026-02-10T10:00:00.000Z', 9999),
    toltCommission('comm_2', 'part_michael', 'cust_pam', '1999', 'approved', '2026-02-05T10:00:00.000Z', 9999),
    toltCommission('comm_6', 'part_dwight', 'cust_oscar', 1234, 'approved', '2026-01-20T10:00:00.000Z', 4113),
    toltCommission('comm_7', 'part_jim', 'cust_angela', 5000, 'paid', '2026-01-15T10:00:00.000Z', 20000),
    toltCommission('comm_1', 'part_michael', 'cust_pam', 1999, 'paid', '2026-01-05T10:00:00.000Z', 9999),
  ],
}

// --- FirstPromoter (v1) ------------------------------------------------------------------------
const fpPromotion = (id: number, promoter: number, ref: string, code: string | null, status: string) => ({
  id,
  status,
  ref_id: ref,
  promo_code: code,
  customer_promo_code: null,
  target_reached_at: null,
  promoter_id: promoter,
  campaign_id: 12,
  referral_link: `https://www.example.com?fpr=${ref}`,
  current_referral_reward: null,
  current_promotion_reward: null,
  visitors_count: 10,
  leads_count: 2,
  customers_count: 1,
  refunds_count: 0,
  cancellations_count: 0,
  sales_count: 1,
  sales_total: 9999,
  refunds_total: 0,
  active_customers_count: 1,
  campaign_name: 'Partners',
})
const fpPromoter = (id: number, first: string, last: string, email: string, paypal: string | null, promotions: ReturnType<typeof fpPromotion>[]) => ({
  id,
  cust_id: null,
  email,
  temp_password: null,
  default_promotion_id: promotions[0]!.id,
  default_ref_id: promotions[0]!.ref_id,
  earnings_balance: { cash: 0 },
  current_balance: { cash: 0 },
  paid_balance: null,
  auth_token: `token-${id}`,
  created_at: '2025-06-01T10:00:00.000Z',
  profile: { id: id + 1000, first_name: first, last_name: last, website: null, company_name: null, phone_number: null, address: null, country: 'US', paypal_email: paypal, avatar_url: null, description: null },
  promotions,
})
const fpLead = (id: number, email: string, state: string, promoter: number, since: string | null) => ({
  id,
  state,
  email,
  uid: `cus_${email.split('@')[0]}`,
  customer_since: since,
  plan_name: 'pro',
  suspicion: 'no_suspicion',
  username: null,
  created_at: '2025-12-01T10:00:00.000Z',
  promotion: { id: promoter * 10, ref_id: null, campaign_name: 'Partners' },
  promoter: { id: promoter, cust_id: null, email: `${promoter}@promoters.example` },
})
const fpReward = (id: number, promoter: number, lead: string, amount: number, status: string, at: string, sale: number, unit = 'cash') => ({
  id,
  status,
  amount,
  unit,
  created_at: at,
  conversion_amount: sale,
  event_id: `in_${id}`,
  tier: 1,
  lead: { id: id * 7, email: lead, uid: `cus_${lead.split('@')[0]}` },
  promoter: { id: promoter, email: null },
  promotion: { id: promoter * 10 },
})
export const FP_LISTS: Record<string, unknown[]> = {
  '/api/v1/promoters/list': [
    fpPromoter(101, 'Leslie', 'Knope', 'leslie@example.com', 'leslie.paypal@example.com', [fpPromotion(1010, 101, 'leslie', 'LESLIE10', 'active')]),
    fpPromoter(102, 'Ron', 'Swanson', 'ron@example.com', null, [fpPromotion(1020, 102, 'ron', null, 'inactive')]),
    fpPromoter(103, 'Ann', 'Perkins', 'ann@example.com', null, [fpPromotion(1030, 103, 'ann', null, 'active')]),
  ],
  '/api/v1/leads/list': [
    fpLead(1, 'tom@example.com', 'active', 101, '2026-01-05T10:00:00.000Z'),
    fpLead(2, 'april@example.com', 'signup', 101, null),
    fpLead(3, 'andy@example.com', 'active', 102, '2026-01-10T10:00:00.000Z'),
    fpLead(4, 'chris@example.com', 'active', 103, '2026-01-12T10:00:00.000Z'),
  ],
  '/api/v1/rewards/list': [
    fpReward(6, 101, 'tom@example.com', 1000, 'pending', '2026-02-26T10:00:00.000Z', 10000),
    fpReward(5, 101, 'tom@example.com', 500, 'approved', '2026-02-01T10:00:00.000Z', 5000, 'points'),
    fpReward(4, 101, 'tom@example.com', 2000, 'denied', '2026-01-25T10:00:00.000Z', 10000),
    fpReward(3, 102, 'andy@example.com', 777, 'approved', '2026-01-20T10:00:00.000Z', 3885),
    fpReward(2, 103, 'chris@example.com', 4321, 'paid', '2026-01-12T10:00:00.000Z', 21605),
    fpReward(1, 101, 'tom@example.com', 2000, 'approved', '2026-01-05T10:00:00.000Z', 10000),
  ],
}

// --- Dub ---------------------------------------------------------------------------------------
/** A partner's link: its key, and what Dub's link schema says beside it (`url`, `utm_*`) where a test sets it. */
type DubLinkFixture = string | { key: string; url: string; utm_source: string | null; utm_medium: string | null; utm_campaign: string | null; utm_term: string | null; utm_content: string | null }
const dubLink = (link: DubLinkFixture) => {
  const { key, ...rest } = typeof link === 'string' ? { key: link, url: 'https://www.example.com' } : link
  return { id: `link_${key}`, domain: 'dub.sh', key, shortLink: `https://dub.sh/${key}`, ...rest, clicks: 10, leads: 2, sales: 1, saleAmount: 9900 }
}
const dubPartner = (id: string, name: string, email: string, status: string, keys: DubLinkFixture[]) => ({
  id,
  name,
  email,
  image: null,
  description: null,
  country: 'US',
  paypalEmail: null,
  tenantId: null,
  status,
  createdAt: '2025-06-01T10:00:00.000Z',
  programId: 'prog_1',
  groupId: 'grp_1',
  links: keys.map(dubLink),
  totalClicks: 10,
  totalLeads: 2,
  totalConversions: 1,
  totalSales: 1,
  totalSaleAmount: 9900,
  totalCommissions: 0,
})
const dubCustomerOf = (email: string) => ({ id: `cus_dub_${email.split('@')[0]}`, externalId: `cus_${email.split('@')[0]}`, name: email.split('@')[0], email, avatar: null, country: 'US', createdAt: '2025-12-01T10:00:00.000Z' })
const dubCommission = (id: string, partner: string, customer: string, earnings: number, status: string, at: string, amount: number) => ({
  id,
  type: 'sale',
  amount,
  earnings,
  currency: 'usd',
  status,
  invoiceId: `in_${id}`,
  description: null,
  quantity: 1,
  createdAt: at,
  updatedAt: at,
  partner: { id: partner, name: partner, email: `${partner}@example.com`, image: null, country: 'US', payoutsEnabledAt: null },
  customer: dubCustomerOf(customer),
})
export const DUB_LISTS: Record<string, unknown[]> = {
  '/partners': [
    dubPartner('pn_alex', 'Alex Doe', 'alex@example.com', 'approved', [
      'alex',
      { key: 'alex-yt', url: 'https://www.example.com/pricing?plan=pro', utm_source: 'youtube', utm_medium: 'video', utm_campaign: 'launch', utm_term: null, utm_content: null },
    ]),
    dubPartner('pn_sam', 'Sam Roe', 'sam@example.com', 'banned', ['sam']),
    dubPartner('pn_kim', 'Kim Poe', 'kim@example.com', 'approved', ['kim']),
  ],
  '/customers': [
    { ...dubCustomerOf('lee@example.com'), sales: 3, saleAmount: 30000, partner: { id: 'pn_alex', name: 'Alex Doe', email: 'alex@example.com' } },
    { ...dubCustomerOf('max@example.com'), sales: 0, saleAmount: 0, partner: { id: 'pn_alex', name: 'Alex Doe', email: 'alex@example.com' } },
    { ...dubCustomerOf('joy@example.com'), sales: 1, saleAmount: 5000, partner: { id: 'pn_sam', name: 'Sam Roe', email: 'sam@example.com' } },
    { ...dubCustomerOf('ray@example.com'), sales: 1, saleAmount: 12000, partner: { id: 'pn_kim', name: 'Kim Poe', email: 'kim@example.com' } },
  ],
  '/commissions': [
    dubCommission('cm_4', 'pn_alex', 'lee@example.com', 1250, 'pending', '2026-02-27T10:00:00.000Z', 5000),
    dubCommission('cm_5', 'pn_alex', 'lee@example.com', 2500, 'refunded', '2026-02-12T10:00:00.000Z', 10000),
    dubCommission('cm_2', 'pn_alex', 'lee@example.com', 2500, 'processed', '2026-02-01T10:00:00.000Z', 10000),
    dubCommission('cm_6', 'pn_sam', 'joy@example.com', 999, 'pending', '2026-01-20T10:00:00.000Z', 5000),
    dubCommission('cm_7', 'pn_kim', 'ray@example.com', 3600, 'paid', '2026-01-15T10:00:00.000Z', 12000),
    dubCommission('cm_1', 'pn_alex', 'lee@example.com', 2500, 'paid', '2026-01-05T10:00:00.000Z', 10000),
  ],
}

export type FakeTool = FakeApi

const authorized: Record<ToolName, (request: IncomingMessage) => boolean> = {
  tolt: (request) => request.headers.authorization === `Bearer ${KEYS.tolt}`,
  firstpromoter: (request) => request.headers['x-api-key'] === KEYS.firstpromoter,
  dub: (request) => request.headers.authorization === `Bearer ${KEYS.dub}`,
}
const PREFIX: Record<ToolName, string> = { tolt: '/v1', firstpromoter: '/api/v1', dub: '' }
const LISTS: Record<ToolName, Record<string, unknown[]>> = { tolt: TOLT_LISTS, firstpromoter: FP_LISTS, dub: DUB_LISTS }

/** Serves the tool's lists in pages of at most `pageSize` objects (Tolt, FirstPromoter), whatever the client asks, to exercise paging. */
export function startFakeTool(tool: ToolName, pageSize = 2, lists = LISTS[tool]): Promise<FakeTool> {
  return startFakeApi({
    prefix: PREFIX[tool],
    lists,
    authorized: authorized[tool],
    unauthorized: tool === 'tolt' ? { success: false, error: { message: 'Invalid API key provided', type: 'authentication_error' } } : { error: { code: 'unauthorized', message: 'Unauthorized' } },
    page: (list, url, request, json) => {
      if (tool === 'tolt') {
        if (url.searchParams.get('program_id') !== TOLT_PROGRAM) return json(400, { success: false, error: { message: 'program_id is required', type: 'invalid_request_error' } })
        const limit = Math.min(Number(url.searchParams.get('limit') ?? '10'), 100, pageSize)
        const after = url.searchParams.get('starting_after')
        const start = after ? list.findIndex((item) => (item as { id: string }).id === after) + 1 : 0
        const data = list.slice(start, start + limit)
        return json(200, { success: true, has_more: start + limit < list.length, total_count: list.length, data })
      }
      const page = Number(url.searchParams.get('page') ?? '1')
      if (tool === 'firstpromoter') {
        const data = list.slice((page - 1) * pageSize, page * pageSize)
        const next = page * pageSize < list.length ? `<http://${request.headers.host}${url.pathname}?page=${page + 1}>; rel="next"` : null
        return json(200, data, next ? { link: next } : {})
      }
      // Dub serves the pageSize asked for (at most 100): paging is exercised by asking for small pages.
      const size = Math.min(Number(url.searchParams.get('pageSize') ?? '100'), 100)
      return json(200, list.slice((page - 1) * size, page * size))
    },
  })
}
