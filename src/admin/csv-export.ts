// The console's CSV exports of affiliates, conversions and analytics: a header row and one row per record,
// written by csv-stringify (RFC 4180 quoting, CRLF rows; a cell holding a line break is quoted
// too). Every cell passes the payout files' formula guard (textCell), so no cell runs as a formula
// when a spreadsheet opens the file. Amounts are the API's decimal text. See docs/admin.md "Exports".
import { stringify } from 'csv-stringify/sync'
import type { AffiliateView, ConversionView } from '../core/rules/views.js'
import type { AnalyticsLine } from '../web/analytics-table.js'
import { textCell } from './payout-files.js'

type Cell = string | number | boolean | Date | null

const text = (cell: Cell): string => (cell === null ? '' : cell instanceof Date ? cell.toISOString() : String(cell))

/** The CSV text of a header and rows, every cell guarded. */
export function csvTable(header: string[], rows: Cell[][]): string {
  return stringify(
    [header, ...rows].map((row) => row.map((cell) => textCell(text(cell)))),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  )
}

export function affiliatesCsv(affiliates: AffiliateView[]): string {
  const header = ['id', 'email', 'name', 'referral_code', 'status', 'partner_slug', 'payout_method', 'paypal_email', 'clicks', 'signups', 'purchases', 'currency', 'held', 'eligible', 'paid', 'unpaid', 'created_at']
  return csvTable(
    header,
    affiliates.map((a) => [a.id, a.email, a.name, a.referralCode, a.status, a.partnerSlug, a.payoutMethod, a.paypalEmail, a.clicks, a.signups, a.purchases, a.currency, a.earnings.held, a.earnings.eligible, a.earnings.paid, a.earnings.unpaid, a.createdAt]),
  )
}

/** `emails` maps each conversion's affiliate id to its email (absent for one that is gone). */
export function conversionsCsv(conversions: ConversionView[], emails: Map<number, string | null>): string {
  const header = ['id', 'created_at', 'affiliate_id', 'affiliate_email', 'type', 'customer_email', 'reference', 'sale_amount', 'sale_currency', 'refunded', 'commission', 'currency', 'status', 'hold_until', 'paid']
  return csvTable(
    header,
    conversions.map((c) => [
      c.id,
      c.createdAt,
      c.affiliateId,
      emails.get(c.affiliateId) ?? null,
      c.type,
      c.customerEmail,
      c.reference,
      c.baseValue,
      c.baseValue === null ? null : (c.baseValueCurrency ?? c.currency),
      c.refundedBaseValue,
      c.value,
      c.currency,
      c.status,
      c.holdUntil,
      c.paid ? 'yes' : 'no',
    ]),
  )
}

/** The analytics table's lines (per group, or per bucket when `grouped` is false), as the page lists them. */
export function analyticsCsv(lines: readonly AnalyticsLine[], grouped: boolean, currency: string): string {
  const figures = ['clicks', 'visitors', 'signups', 'conversions', 'conversion_rate', 'revenue', 'commission', 'currency']
  const cells = (line: AnalyticsLine): Cell[] => [line.clicks, line.visitors, line.signups, line.conversions, line.rate, line.revenue, line.commission, currency]
  return grouped
    ? csvTable(['group', 'label', ...figures], lines.map((line) => [line.value, line.label, ...cells(line)]))
    : csvTable(['start', ...figures], lines.map((line) => [line.value, ...cells(line)]))
}
