// Payout terms (docs/payouts.md): when an unpaid commission becomes payable, how much of an
// affiliate's unpaid money is payable on a day, whether it reaches the minimum, and the next
// scheduled payout day. Pure: days are calendar days of the project's time zone (calendar.ts).
import { addCalendarDays, bucketStart, nextBucket } from '../model/calendar.js'
import type { OpenCommission, PayoutSettings, PayoutTermsSettings } from '../model/types.js'

export type { OpenCommission } from '../model/types.js'

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
  /** The first instant it is payable: its hold's end, or (terms) the start of its payable day. */
  payableAt(holdUntil: Date): Date
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
    payableAt: (holdUntil) => (settings ? dayStart(payableDay(holdUntil), dayOf) : holdUntil),
  }
}

/** The affiliate's payable balance from its open commissions (those `payable` accepts) and its credit. */
export function payableBalance(open: readonly OpenCommission[], credit: bigint, payable: (commission: OpenCommission) => boolean): PayableBalance {
  const chosen = open.filter(payable).sort(oldestFirst)
  const sum = chosen.reduce((total, commission) => total + commission.unpaid, 0n)
  return { amount: sum > credit ? sum - credit : 0n, conversionIds: chosen.map((commission) => commission.id) }
}

/** What is payable at a moment and what becomes payable next: the one reading of payable that every page, the API and mail share. */
export interface PayableSchedule {
  /** Payable at `at`: what GET /payouts/due lists (at or above the minimum). */
  now: PayableBalance
  /** The next day (YYYY-MM-DD) more becomes payable, and how much more; null when nothing unpaid waits. */
  next: { day: string; amount: bigint } | null
}

/** The payable balance at `at` and the next day on which it grows (a hold ending, or the terms passing). */
export function payableSchedule(open: readonly OpenCommission[], credit: bigint, terms: PayoutTerms, at: Date): PayableSchedule {
  const now = payableBalance(open, credit, (commission) => terms.isPayable(commission.holdUntil, at))
  const later = open.filter((commission) => commission.unpaid > 0n && !terms.isPayable(commission.holdUntil, at)).map((commission) => terms.payableDay(commission.holdUntil))
  for (const day of [...new Set(later)].sort()) {
    const then = payableBalance(open, credit, (commission) => terms.isPayable(commission.holdUntil, at) || terms.payableDay(commission.holdUntil) <= day)
    // Credit can swallow what a day brings: the next day that raises the balance is the one to tell.
    if (then.amount > now.amount) return { now, next: { day, amount: then.amount - now.amount } }
  }
  return { now, next: null }
}

/** The scheduled payout day on or after `today` (YYYY-MM-DD): `day` of this month or the next. */
export function nextScheduledDay(today: string, day: number): string {
  const thisMonth = addCalendarDays(bucketStart(today, 'month'), day - 1)
  return thisMonth >= today ? thisMonth : addCalendarDays(nextBucket(bucketStart(today, 'month'), 'month'), day - 1)
}

function oldestFirst(a: OpenCommission, b: OpenCommission): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id
}

/** The first instant of `day` in the calendar `dayOf` reads (time zones lie within 14 hours of UTC, on quarter hours). */
function dayStart(day: string, dayOf: (at: Date) => string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`)
  for (let at = midnight - 14 * 3_600_000; at <= midnight + 14 * 3_600_000; at += 900_000) {
    if (dayOf(new Date(at)) >= day) return new Date(at)
  }
  return new Date(midnight)
}
