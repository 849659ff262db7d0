// Payout terms (docs/payouts.md): when an unpaid commission becomes payable, how much of an
// affiliate's unpaid money is payable on a day, whether it reaches the minimum, and the next
// scheduled payout day. Pure: days are calendar days of the project's time zone (calendar.ts).
import { addCalendarDays, bucketStart, nextBucket } from './calendar.js'
import type { PayoutSettings, PayoutTermsSettings } from './types.js'

/** An unpaid counted conversion: what terms need of it. */
export interface OpenCommission {
  id: number
  affiliateId: number
  /** Its unpaid money (minor units). */
  unpaid: bigint
  holdUntil: Date
  createdAt: Date
}

export interface PayableBalance {
  /** Unpaid money of commissions payable by then, less credit (never below 0). */
  amount: bigint
  /** The commissions payable by then, oldest first: what a payout of `amount` settles. */
  conversionIds: number[]
}

/** The terms of a project, reading instants as days of its time zone. */
export interface PayoutTerms {
  /** The day a commission held until `holdUntil` becomes payable. */
  payableDay(holdUntil: Date): string
  /** Whether it is payable at `at`. */
  isPayable(holdUntil: Date, at: Date): boolean
}

/** The payout terms of the settings, or null when none are set. */
export function termsOf(settings: PayoutSettings | undefined): PayoutTermsSettings | null {
  return settings?.termsDays === undefined ? null : (settings as PayoutTermsSettings)
}

/**
 * Without payout terms a commission is payable when its hold ends (payable equals eligible);
 * with them, `termsDays` after the end of the month its hold ended in.
 */
export function payoutTerms(payouts: PayoutSettings | undefined, dayOf: (at: Date) => string): PayoutTerms {
  const settings = termsOf(payouts)
  const payableDay = (holdUntil: Date) => {
    const holdDay = dayOf(holdUntil)
    if (!settings) return holdDay
    return addCalendarDays(nextBucket(bucketStart(holdDay, 'month'), 'month'), settings.termsDays)
  }
  return {
    payableDay,
    isPayable: (holdUntil, at) => (settings ? payableDay(holdUntil) <= dayOf(at) : holdUntil.getTime() <= at.getTime()),
  }
}

/** The affiliate's payable balance from its open commissions (those `payable` accepts) and its credit. */
export function payableBalance(open: readonly OpenCommission[], credit: bigint, payable: (commission: OpenCommission) => boolean): PayableBalance {
  const chosen = open.filter(payable).sort(oldestFirst)
  const sum = chosen.reduce((total, commission) => total + commission.unpaid, 0n)
  return { amount: sum > credit ? sum - credit : 0n, conversionIds: chosen.map((commission) => commission.id) }
}

/** The scheduled payout day on or after `today` (YYYY-MM-DD): `day` of this month or the next. */
export function nextScheduledDay(today: string, day: number): string {
  const thisMonth = addCalendarDays(bucketStart(today, 'month'), day - 1)
  return thisMonth >= today ? thisMonth : addCalendarDays(nextBucket(bucketStart(today, 'month'), 'month'), day - 1)
}

function oldestFirst(a: OpenCommission, b: OpenCommission): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id
}
