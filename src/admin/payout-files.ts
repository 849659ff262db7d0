// Batch payout files for the payouts page: a PayPal Payouts payment file (no header row; columns
// recipient, amount, currency, customer id, note) and a Wise "send by email" batch file (header
// name, recipientEmail, paymentReference, receiverType, amountCurrency, amount, sourceCurrency,
// targetCurrency). Amounts are the API's decimal text, never floats; text cells (names, emails,
// notes) are guarded against formula injection. See docs/admin.md "Payouts".
import type { AffiliateView } from '../core/rules/views.js'
import { csvField, textCell } from '../server/csv.js'

export interface BatchLine {
  affiliate: AffiliateView
  /** Decimal text in the program's currency, as the API reports it. */
  amount: string
}

export type BatchFormat = 'paypal' | 'wise'

export { csvField, textCell }

const row = (fields: string[]) => fields.map(csvField).join(',')

export const paypalRecipient = (affiliate: AffiliateView): string => affiliate.paypalEmail ?? affiliate.email
export const wiseRecipient = (affiliate: AffiliateView): string => affiliate.wiseDetails?.email ?? affiliate.email

export function paypalPayoutsFile(lines: BatchLine[], note: string): string {
  return lines.map(({ affiliate, amount }) => row([textCell(paypalRecipient(affiliate)), amount, affiliate.currency, `aff_${affiliate.id}`, textCell(note)]) + '\r\n').join('')
}

export function wiseBatchFile(lines: BatchLine[], reference: string): string {
  const header = row(['name', 'recipientEmail', 'paymentReference', 'receiverType', 'amountCurrency', 'amount', 'sourceCurrency', 'targetCurrency'])
  const body = lines.map(({ affiliate, amount }) =>
    row([textCell(affiliate.name ?? affiliate.email), textCell(wiseRecipient(affiliate)), textCell(reference), 'PERSON', 'source', amount, affiliate.currency, affiliate.currency]),
  )
  return [header, ...body].map((line) => `${line}\r\n`).join('')
}
