// The ledger of docs/ledger.md: which conversions count, how each change moves the running
// totals (including clawbacks into credit), and the balances derived from them.
import type { AffiliateTotals, Conversion, ConversionStatus, TotalsDelta } from '../model/types.js'

type LedgerView = Pick<Conversion, 'status' | 'value' | 'paid' | 'paidByPayoutId' | 'type'>

/** pending and active conversions earn; review, refunded and rejected do not. */
export function isCounted(conversion: Pick<Conversion, 'status'>): boolean {
  return conversion.status === 'active'
}

/** The status users see: a stored `active` inside its hold period reads as `pending`. */
export function visibleStatus(conversion: Pick<Conversion, 'status' | 'holdUntil'>, now: Date): ConversionStatus {
  return conversion.status === 'active' && conversion.holdUntil.getTime() > now.getTime() ? 'pending' : conversion.status
}

function contribution(conversion: LedgerView | null) {
  const counted = conversion !== null && isCounted(conversion)
  return {
    counted: counted ? conversion.value : 0n,
    paid: counted && conversion.paid ? conversion.value : 0n,
    purchases: counted && conversion.type === 'purchase' ? 1 : 0,
  }
}

/**
 * How the affiliate's totals move when a conversion goes from `before` to `after` (null: absent).
 * Paid money that stops being matched to a counted conversion returns to credit (a clawback),
 * except when a conversion marked paid by hand is simply unmarked.
 */
export function ledgerDelta(before: LedgerView | null, after: LedgerView | null): TotalsDelta {
  const was = contribution(before)
  const now = contribution(after)
  const paidDrop = was.paid - now.paid
  const handUnmark =
    before !== null && after !== null && before.paid && !after.paid && before.paidByPayoutId === null && isCounted(after)
  return {
    countedValue: now.counted - was.counted,
    paidValue: now.paid - was.paid,
    credit: paidDrop > 0n && !handUnmark ? paidDrop : 0n,
    purchases: now.purchases - was.purchases,
  }
}

export interface Balances {
  total: bigint
  paid: bigint
  unpaid: bigint
  eligible: bigint
  held: bigint
  credit: bigint
  nextReleaseAt: Date | null
}

/** Balances from the running totals and the unpaid held sum (see docs/ledger.md "Balances"). */
export function computeBalances(
  totals: Pick<AffiliateTotals, 'countedValue' | 'paidValue' | 'credit'>,
  unpaidHeld: { amount: bigint; nextReleaseAt: Date | null },
): Balances {
  const unpaidEligible = totals.countedValue - totals.paidValue - unpaidHeld.amount
  const overflow = totals.credit > unpaidEligible ? totals.credit - unpaidEligible : 0n
  const eligible = unpaidEligible > totals.credit ? unpaidEligible - totals.credit : 0n
  const held = unpaidHeld.amount - overflow
  return {
    total: totals.countedValue,
    paid: totals.paidValue + totals.credit,
    unpaid: eligible + held,
    eligible,
    held,
    credit: totals.credit,
    nextReleaseAt: unpaidHeld.nextReleaseAt,
  }
}

export const EMPTY_TOTALS: AffiliateTotals = {
  countedValue: 0n,
  paidValue: 0n,
  credit: 0n,
  clicks: 0,
  signups: 0,
  purchases: 0,
}
