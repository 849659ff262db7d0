// A local Rewardful: the documented list endpoints (/affiliates, /affiliate_coupons, /referrals,
// /commissions, /payouts), HTTP Basic with the API secret as user name, `page` / `limit` paging answered with
// `pagination.next_page`, and optional 429s. Fixtures are Rewardful's published object shapes
// (developers.rewardful.com/rest-api), not this library's types.
import { startFakeApi, type FakeApi } from './fake-api.js'

export const API_SECRET = 'rewardful_secret_123'

const campaign = { id: 'c3482343-8680-40c5-af9a-9efa119713b5', created_at: '2025-05-22T02:55:19.802Z', updated_at: '2025-08-19T16:28:16.177Z', name: 'Friends of MI6' }

function affiliate(id: string, first: string, last: string, email: string, state: string, token: string, paypal: string | null, more: string[] = []) {
  return {
  id,
  created_at: '2025-05-09T16:18:59.920Z',
  updated_at: '2025-05-09T16:25:42.614Z',
  first_name: first,
  last_name: last,
  email,
  paypal_email: paypal,
  state,
  stripe_customer_id: null,
  stripe_account_id: 'acct_ABC123',
  visitors: 10,
  leads: 2,
  conversions: 1,
  campaign,
  links: [token, ...more].map((each) => ({ id: `link-${id}-${each}`, url: `https://www.example.com/?via=${each}`, token: each, visitors: 10, leads: 2, conversions: 1 })),
  coupon: null,
  }
}

export const JAMES = 'd0ed8392-8880-4f39-8715-60230f9eceab'
export const EVE = 'dc939584-a94a-4bdf-b8f4-8d255aae729c'
export const Q = '95d48f70-f1d4-42d9-b929-21996b6d9eb4'

export const affiliates = [
  // Two links: the second token becomes a link alias.
  affiliate(JAMES, 'James', 'Bond', 'james@example.com', 'active', 'jb007', 'james.paypal@example.com', ['bond']),
  affiliate(EVE, 'Eve', 'Moneypenny', 'eve@example.com', 'disabled', 'eve', null),
  affiliate(Q, 'Q', 'Branch', 'q@example.com', 'active', 'qbranch', null),
]

export const coupons = [{ id: '75434e84-255b-4314-a278-820df5e76813', external_id: 'promo_1a2b3c', token: 'JB007SAVE', leads: 0, conversions: 0, affiliate_id: JAMES }]

const referral = (id: string, affiliateId: string, state: string, customer: { id: string; email: string } | null, convertedAt: string | null = null) => ({
  id,
  link: { id: `link-${affiliateId}`, url: 'https://www.example.com/?via=jb007', token: 'jb007', visitors: 7, leads: 6, conversions: 5 },
  visits: 3,
  customer: customer && { id: customer.id, name: customer.email.split('@')[0], email: customer.email, platform: 'stripe' },
  affiliate: { id: affiliateId, email: affiliates.find((a) => a.id === affiliateId)!.email, campaign },
  conversion_state: state,
  became_lead_at: customer ? '2025-12-19T16:20:00.000Z' : null,
  became_conversion_at: convertedAt,
  deactivated_at: null,
  expires_at: '2026-10-18T16:13:12.109Z',
  stripe_account_id: 'acct_ABC123',
  stripe_customer_id: customer?.id ?? null,
  created_at: '2025-12-19T16:13:12.109Z',
  updated_at: '2025-12-19T16:28:31.166Z',
})

export const referrals = [
  referral('r-alice', JAMES, 'conversion', { id: 'cus_alice', email: 'alice@example.com' }, '2026-01-05T10:00:00.000Z'),
  referral('r-bob', JAMES, 'lead', { id: 'cus_bob', email: 'bob@example.com' }),
  referral('r-visitor', JAMES, 'visitor', null),
  referral('r-carol', EVE, 'conversion', { id: 'cus_carol', email: 'carol@example.com' }, '2026-01-10T10:00:00.000Z'),
  referral('r-dave', Q, 'conversion', { id: 'cus_dave', email: 'dave@example.com' }, '2026-01-15T10:00:00.000Z'),
]

const commission = (id: string, affiliateId: string, customer: string, amount: number, state: string, chargedAt: string, saleCents: number) => ({
  id,
  created_at: chargedAt,
  updated_at: chargedAt,
  amount,
  currency: 'USD',
  state,
  due_at: null,
  paid_at: state === 'paid' ? chargedAt : null,
  voided_at: state === 'voided' ? chargedAt : null,
  campaign,
  sale: {
    id: `sale-${id}`,
    currency: 'USD',
    charged_at: chargedAt,
    stripe_account_id: 'acct_ABC123',
    stripe_charge_id: `ch_${id}`,
    invoiced_at: chargedAt,
    created_at: chargedAt,
    updated_at: chargedAt,
    charge_amount_cents: saleCents,
    refund_amount_cents: 0,
    tax_amount_cents: 0,
    sale_amount_cents: saleCents,
    referral: { id: `r-${customer}`, stripe_customer_id: `cus_${customer}`, conversion_state: 'conversion', customer: { platform: 'stripe', id: `cus_${customer}`, name: customer, email: `${customer}@example.com` } },
    affiliate: { id: affiliateId, email: affiliates.find((a) => a.id === affiliateId)?.email ?? '' },
  },
})

// Rewardful lists newest first.
export const commissions = [
  commission('c3', JAMES, 'alice', 1499, 'pending', '2026-02-20T10:00:00.000Z', 4997),
  commission('c4', JAMES, 'alice', 2500, 'voided', '2026-02-10T10:00:00.000Z', 10000),
  commission('c2', JAMES, 'alice', 3000, 'due', '2026-01-20T10:00:00.000Z', 10000),
  commission('c6', Q, 'dave', 5000, 'paid', '2026-01-15T10:00:00.000Z', 20000),
  commission('c5', EVE, 'carol', 1234, 'due', '2026-01-10T10:00:00.000Z', 4113),
  commission('c1', JAMES, 'alice', 3000, 'paid', '2026-01-05T10:00:00.000Z', 10000),
]

/** Paid payouts with their commissions expanded (GET /payouts?expand[]=commissions). */
const payout = (id: string, affiliateId: string, paidAt: string, paid: string[]) => ({
  id,
  currency: 'USD',
  paid_at: paidAt,
  state: 'paid',
  paid_by_id: '3e5c04ae-af80-4964-b280-23df034690d4',
  created_at: paidAt,
  updated_at: paidAt,
  amount: commissions.filter((c) => paid.includes(c.id)).reduce((sum, c) => sum + c.amount, 0),
  affiliate: { id: affiliateId, email: affiliates.find((a) => a.id === affiliateId)!.email },
  commissions: commissions.filter((c) => paid.includes(c.id)).map(({ sale: _sale, campaign: _campaign, ...rest }) => rest),
})

export const payouts = [payout('p-q-1', Q, '2026-02-16T09:00:00.000Z', ['c6']), payout('p-james-1', JAMES, '2026-02-05T09:00:00.000Z', ['c1'])]

const LISTS: Record<string, unknown[]> = { '/v1/affiliates': affiliates, '/v1/affiliate_coupons': coupons, '/v1/referrals': referrals, '/v1/commissions': commissions, '/v1/payouts': payouts }

/** A larger program: affiliate i has token `aff<i>`, one customer and one due commission of i cents. */
export function generatedLists(count: number): Record<string, unknown[]> {
  const ids = Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`)
  const many = ids.map((id, i) => affiliate(id, 'Affiliate', String(i + 1), `aff${i + 1}@example.com`, 'active', `aff${i + 1}`, null))
  return {
    '/v1/affiliates': many,
    '/v1/affiliate_coupons': [],
    '/v1/referrals': [],
    '/v1/payouts': [],
    '/v1/commissions': ids.map((id, i) => {
      const row = commission(`gc${i + 1}`, id, `buyer${i + 1}`, i + 1, 'due', '2026-01-05T10:00:00.000Z', 10 * (i + 1))
      row.sale.affiliate.email = `aff${i + 1}@example.com`
      return row
    }),
  }
}

export type FakeRewardful = FakeApi

/** Serves pages of at most `pageSize` objects, whatever `limit` asks, to exercise paging; `lists` replaces the fixtures. */
export function startFakeRewardful(pageSize = 2, lists: Record<string, unknown[]> = LISTS): Promise<FakeRewardful> {
  return startFakeApi({
    prefix: '/v1',
    lists,
    authorized: (request) => request.headers.authorization === `Basic ${Buffer.from(`${API_SECRET}:`).toString('base64')}`,
    unauthorized: { error: 'Invalid API Secret.' },
    page: (list, url, _request, json) => {
      const page = Number(url.searchParams.get('page') ?? '1')
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '25'), 100, pageSize)
      const totalPages = Math.max(1, Math.ceil(list.length / limit))
      const data = list.slice((page - 1) * limit, page * limit)
      json(200, {
        pagination: {
          previous_page: page > 1 ? page - 1 : null,
          current_page: page,
          next_page: page < totalPages ? page + 1 : null,
          count: data.length,
          limit,
          total_pages: totalPages,
          total_count: list.length,
        },
        data,
      })
    },
  })
}
