// The ledger as of a date (docs/payouts.md): an affiliate's balances at a moment, and the
// movements of a period (JSON, or CSV with Accept: text/csv); once for every shape.
import type { LedgerEntry } from '../../core/payouts/ledger-history.js'
import { defineOperation, TextBody } from '../route.js'
import { asOfQuery, ledgerQuery } from '../schemas.js'

export const affiliateBalances = defineOperation({
  id: 'getAffiliatesEmailBalances',
  method: 'GET',
  path: '/affiliates/:email/balances',
  scope: 'affiliates:read',
  summary: "An affiliate's balances (earned, held, eligible, payable, paid, credit, unpaid) as they stood at as_of (default: now)",
  errors: [400, 404],
  query: asOfQuery,
  run: ({ api, params, query, affiliateRef }) => api.ledger.balances(affiliateRef(params.email), query.as_of),
})

export const programBalances = defineOperation({
  id: 'getLedgerBalances',
  method: 'GET',
  path: '/ledger/balances',
  scope: 'payouts:read',
  summary: 'What the program owed at as_of (default: now): every affiliate that existed then, with its balances, and their sums',
  errors: [400],
  query: asOfQuery,
  run: ({ api, query }) => api.ledger.programBalances(query.as_of),
})

export const listLedger = defineOperation({
  id: 'getLedger',
  method: 'GET',
  path: '/ledger',
  scope: 'payouts:read',
  summary: 'Every ledger movement recorded after from and at or before to (CSV with Accept: text/csv)',
  errors: [400],
  query: ledgerQuery,
  run: ({ api, query }) => api.ledger.movements(query),
})

/** Whether the client asked for CSV rather than JSON. */
export function wantsCsv(accept: string | undefined): boolean {
  return /(^|,)\s*text\/csv\b/i.test(accept ?? '')
}

const CSV_COLUMNS = ['at', 'affiliate_id', 'type', 'amount', 'currency', 'conversion_id', 'payout_id']

/** The export as CSV: ids, types and amounts only, so no cell can start a formula. */
export function ledgerCsv(entries: readonly LedgerEntry[]): TextBody {
  const lines = entries.map((entry) =>
    [entry.at.toISOString(), entry.affiliateId, entry.type, entry.amount, entry.currency, entry.conversionId ?? '', entry.payoutId ?? ''].join(','),
  )
  return new TextBody('text/csv; charset=utf-8', [CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n')
}
