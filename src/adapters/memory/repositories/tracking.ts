// The in-memory tracking store: per-day counters, visitor-day marks, visitor salts and referral
// times, in Maps of its own (each write undone with the transaction that made it).
import type { DailyCounts, DailyRow, TrackingRepository, VisitorSignal } from '../../../core/ports/tracking-storage.js'
import { setMapEntry, type UndoLog } from '../table.js'

export class TrackingState {
  /** project id -> day -> affiliate id (0: the whole project) -> counts: a range read walks days. */
  daily = new Map<string, Map<string, Map<number, DailyCounts>>>()
  /** `${projectId}|${affiliateId}` -> day -> counts, the same objects: an affiliate's range read visits its own days, not the calendar's. */
  affiliateDays = new Map<string, Map<string, DailyCounts>>()
  visitors = new Set<string>()
  salts = new Map<string, string>()
  referredAt = new Map<string, Date>()
  /** `${projectId}|${affiliateId}|${visitor}` -> its signals (docs/fraud.md) and the day of the first. */
  visitorSignals = new Map<string, { kinds: VisitorSignal[]; day: string }>()
}

/** The affiliate id of the project-wide counters (real ids start at 1). */
const PROJECT_ROW = 0

const empty = (): DailyCounts => ({ clicks: 0, visitors: 0, signups: 0, purchases: 0, customers: 0, revenue: 0n, commission: 0n })

function plus(counts: DailyCounts, delta: Partial<DailyCounts>): DailyCounts {
  return {
    clicks: counts.clicks + (delta.clicks ?? 0),
    visitors: counts.visitors + (delta.visitors ?? 0),
    signups: counts.signups + (delta.signups ?? 0),
    purchases: counts.purchases + (delta.purchases ?? 0),
    customers: counts.customers + (delta.customers ?? 0),
    revenue: counts.revenue + (delta.revenue ?? 0n),
    commission: counts.commission + (delta.commission ?? 0n),
  }
}

/** The affiliate's counters of one day, as stored; undefined when it has none. */
export function dayCounts(state: TrackingState, projectId: string, affiliateId: number, day: string): DailyCounts | undefined {
  return state.daily.get(projectId)?.get(day)?.get(affiliateId)
}

/** Each day's next, computed once: range reads walk days on every conversion of an affiliate with tiers or bonuses. */
const nextDays = new Map<string, string>()

function nextDay(day: string): string {
  let next = nextDays.get(day)
  if (next === undefined) {
    next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    nextDays.set(day, next)
  }
  return next
}

/** Up to this many days with counters, a range read looks at each rather than walk the range (a month or a quarter). */
const FEW_DAYS = 28

/** Counters by day: an affiliate's own, or the project's row of each day. */
interface CountedDays {
  readonly size: number
  keys(): Iterable<string>
  get(day: string): DailyCounts | undefined
}

function projectDays(byDay: Map<string, Map<number, DailyCounts>>): CountedDays {
  return { size: byDay.size, keys: () => byDay.keys(), get: (day) => byDay.get(day)?.get(PROJECT_ROW) }
}

function* walk(from: string, to: string): Generator<string> {
  for (let day = from; day < to; day = nextDay(day)) yield day
}

export function trackingRepository(state: TrackingState, log: UndoLog): TrackingRepository {
  return {
    async addDaily(projectId, affiliateId, day, delta) {
      let byDay = state.daily.get(projectId)
      if (!byDay) {
        byDay = new Map()
        setMapEntry(state.daily, projectId, byDay, log)
      }
      let byAffiliate = byDay.get(day)
      if (!byAffiliate) {
        byAffiliate = new Map()
        setMapEntry(byDay, day, byAffiliate, log)
      }
      const counts = plus(byAffiliate.get(affiliateId) ?? empty(), delta)
      setMapEntry(byAffiliate, affiliateId, counts, log)
      const key = `${projectId}|${affiliateId}`
      let ownDays = state.affiliateDays.get(key)
      if (!ownDays) {
        ownDays = new Map()
        setMapEntry(state.affiliateDays, key, ownDays, log)
      }
      setMapEntry(ownDays, day, counts, log)
      // The project's own row (affiliate 0): program-wide stats read one entry per day.
      setMapEntry(byAffiliate, PROJECT_ROW, plus(byAffiliate.get(PROJECT_ROW) ?? empty(), delta), log)
    },
    async daily(projectId, { from, to, affiliateId }) {
      const byDay = state.daily.get(projectId)
      const counted: CountedDays | undefined = affiliateId === undefined ? byDay && projectDays(byDay) : state.affiliateDays.get(`${projectId}|${affiliateId}`)
      const rows: DailyRow[] = []
      if (!counted) return rows
      // Fewer days with counters than in the range (a lifetime tier: 1970 to 9999): those days are read instead of walking the range.
      const days = counted.size <= FEW_DAYS || (Date.parse(to) - Date.parse(from)) / 86_400_000 > counted.size ? [...counted.keys()].filter((day) => day >= from && day < to).sort() : walk(from, to)
      for (const day of days) {
        const counts = counted.get(day)
        if (counts) rows.push({ day, ...counts })
      }
      return rows
    },
    async visitorSalt(projectId, candidate) {
      const existing = state.salts.get(projectId)
      if (existing !== undefined) return existing
      setMapEntry(state.salts, projectId, candidate, log)
      return candidate
    },
    async referredAt(projectId, referralId) {
      return state.referredAt.get(`${projectId}|${referralId}`) ?? null
    },
    async setReferredAt(projectId, referralId, at) {
      setMapEntry(state.referredAt, `${projectId}|${referralId}`, at, log)
    },
    async markVisitorSignal(projectId, affiliateId, visitor, kind, day) {
      const key = `${projectId}|${affiliateId}|${visitor}`
      const signals = state.visitorSignals.get(key) ?? { kinds: [], day }
      if (!signals.kinds.includes(kind)) setMapEntry(state.visitorSignals, key, { kinds: [...signals.kinds, kind], day: signals.day }, log)
    },
  }
}
