// /payouts (payouts recorded outside the service, the year-end tax summary) and /clicks, once for
// every shape (docs/api.md "Payouts", "Clicks"; docs/tax-details.md).
import type * as v from 'valibot'
import type { ProjectScope } from '../../core/program.js'
import type { TaxSummaryRow } from '../../core/affiliates/tax-details.js'
import { csvField, textCell } from '../../server/csv.js'
import { HttpError } from '../../server/errors.js'
import { defined, defineOperation, pathId, TextBody, type Given } from '../route.js'
import { listPayoutRequestsQuery, listPayoutsQuery, payoutRunBody, taxSummaryQuery, trackClickBody, type createPayoutBody } from '../schemas.js'

/** The core's payout input from a POST /payouts body (its fields are named alike in every shape). */
export function payoutInput(body: v.InferOutput<typeof createPayoutBody>) {
  return defined({ affiliateId: body.affiliate_id, affiliateEmail: body.affiliate_email, amount: body.amount, method: body.method, paymentDate: body.payment_date })
}

export const listPayouts = defineOperation({
  id: 'getPayouts',
  method: 'GET',
  path: '/payouts',
  scope: 'payouts:read',
  summary: 'List payouts, newest first',
  errors: [400],
  query: listPayoutsQuery,
  run: ({ api, query, window }) => api.payouts.list(defined({ ...window(query), affiliateId: query.affiliate_id, asOf: query.as_of })),
})

export const createPayout = defineOperation({
  id: 'postPayouts',
  method: 'POST',
  path: '/payouts',
  scope: 'payouts:write',
  summary: 'Record a payout made outside the service',
  errors: [400, 404, 409],
  status: 201,
  run: ({ api, input }: Given<Parameters<ProjectScope['payouts']['create']>[0]>) => api.payouts.create(input),
})

/** docs/payouts.md "When money is due": affiliates whose payable balance reaches the minimum. */
export const listDuePayouts = defineOperation({
  id: 'getPayoutsDue',
  method: 'GET',
  path: '/payouts/due',
  scope: 'payouts:read',
  summary: 'List the affiliates due a payout: payable balance at or above the minimum, and its conversions',
  errors: [],
  run: ({ api }) => api.payouts.due(),
})

/** docs/payouts.md "Payout requests": what affiliates asked for in the portal, newest first. */
export const listPayoutRequests = defineOperation({
  id: 'getPayoutsRequests',
  method: 'GET',
  path: '/payouts/requests',
  scope: 'payouts:read',
  summary: 'List payout requests made by affiliates in the portal, newest first',
  errors: [400],
  query: listPayoutRequestsQuery,
  run: ({ api, query, window }) => api.payouts.requests(defined({ ...window(query), affiliateId: query.affiliate_id, status: query.status })),
})

export type { PayoutRunService } from '../route-services.js'

/** docs/payouts.md "Payout runs": every due affiliate paid through its provider, once per period. */
export const runPayouts = defineOperation({
  id: 'postPayoutsRuns',
  method: 'POST',
  path: '/payouts/runs',
  scope: 'payouts:write',
  summary: 'Pay every due affiliate through PayPal Payouts or Stripe Connect now, once per period; dry_run answers the batch without sending it',
  errors: [400, 409, 501],
  destructive: true,
  body: payoutRunBody,
  async run({ payoutRuns, body, projectId }) {
    if (!payoutRuns) throw new HttpError('not_implemented', 'this server sends no payouts: configure payoutProviders (affiliate-kit serve), or create the handler with payoutRuns')
    return payoutRuns.run(projectId, { dryRun: body.dry_run === true })
  },
})

export const getPayout = defineOperation({
  id: 'getPayoutsId',
  method: 'GET',
  path: '/payouts/:id',
  scope: 'payouts:read',
  summary: 'Retrieve a payout',
  errors: [400, 404],
  run: ({ api, params }) => api.payouts.get(pathId(params.id, 'payout')),
})

export const trackClick = defineOperation({
  id: 'postClicks',
  method: 'POST',
  path: '/clicks',
  scope: 'referrals:write',
  summary: 'Count a click on a referral link',
  errors: [400, 404],
  status: 201,
  body: trackClickBody,
  run: ({ api, body }) => api.trackClick(defined({ referralCode: body.referral_code, ip: body.ip_address, userAgent: body.user_agent, url: body.landing_url })),
})

const TAX_SUMMARY_COLUMNS = ['affiliate_id', 'email', 'legal_name', 'country', 'form_type', 'tax_id', 'total_paid', 'currency', 'payouts']

/** The year-end totals as CSV: the one answer holding tax ids in full (docs/tax-details.md). */
export function taxSummaryCsv(rows: TaxSummaryRow[]): TextBody {
  const text = (value: string | null) => csvField(textCell(value ?? ''))
  const lines = rows.map((row) =>
    [String(row.affiliateId), text(row.email), text(row.legalName), text(row.country), text(row.formType), text(row.taxId), row.totalPaid, row.currency, String(row.payouts)].join(','),
  )
  return new TextBody('text/csv; charset=utf-8', [TAX_SUMMARY_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n')
}

export const taxSummary = defineOperation({
  id: 'getPayoutsTaxSummary',
  method: 'GET',
  path: '/payouts/tax-summary',
  scope: 'payouts:read',
  summary: 'Year-end totals paid per affiliate with its tax details, tax ids in full (CSV)',
  errors: [400, 409],
  query: taxSummaryQuery,
  async run({ api, query }) {
    if (query.year === undefined) throw new HttpError('invalid_request', 'year: is required', 'year')
    return taxSummaryCsv(await api.taxDetails.summary(query.year))
  },
})
