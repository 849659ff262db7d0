// The tracking part of the storage port: per-day counters (stats read O(days), never O(events)),
// the project's visitor salt, the fraud rules' visitor signals, and when a referred user was last
// referred (the attribution window's start). Visitor-day marks are the analytics port's.

/** from <= day < to, YYYY-MM-DD. */
export interface DayRange {
  from: string
  to: string
}

/** An affiliate's counts of one day that tiers and bonuses sum (the per-day counters, docs/stats.md). */
export interface DayFigures {
  day: string
  revenue: bigint
  customers: number
}

/** What one affiliate did on one calendar day of the project's time zone. Money in minor units. */
export interface DailyCounts {
  clicks: number
  /** Distinct visitors of that day (a visitor seen on two days counts on both). */
  visitors: number
  signups: number
  purchases: number
  /** Customers whose first purchase this was (performance tiers and bonuses count them, docs/commissions.md). */
  customers: number
  revenue: bigint
  commission: bigint
}

export interface DailyRow extends DailyCounts {
  /** YYYY-MM-DD */
  day: string
}

export interface TrackingRepository {
  /**
   * Adds each delta to the counters of (project, affiliate, day) and to the project's own counters
   * of that day, creating the rows (atomic, never read-modify-write).
   */
  addDaily(projectId: string, affiliateId: number, day: string, delta: Partial<DailyCounts>): Promise<void>
  /** Per-day counters of one affiliate, or of the project, for from <= day < to, by day ascending; days without counts are absent. */
  daily(projectId: string, range: { from: string; to: string; affiliateId?: number }): Promise<DailyRow[]>
  /** The project's secret visitor salt; stores `candidate` when the project has none yet and returns the one that stands. */
  visitorSalt(projectId: string, candidate: string): Promise<string>
  /** When the referred user was last referred to its affiliate; null when never recorded (its createdAt counts). */
  referredAt(projectId: string, referralId: number): Promise<Date | null>
  setReferredAt(projectId: string, referralId: number, at: Date): Promise<void>
  /** Records a fraud signal (`kind`) of a visitor (16 characters of a day's hash) of the affiliate: idempotent (docs/fraud.md). */
  markVisitorSignal(projectId: string, affiliateId: number, visitor: string, kind: VisitorSignal, day: string): Promise<void>
}

/** A visitor seen as the affiliate itself (in its portal), or arriving with a paid ad's click id. */
export type VisitorSignal = 'own' | 'gclid' | 'fbclid' | 'msclkid'
