// The analytics part of the storage port (docs/analytics.md): the click rows a flush writes in a
// few multi-row statements, the rollups the flush maintains beside them, and the reads of the
// analytics query. One interface, so a column store can take the clicks later (docs/scaling.md).

/** The device class a click's user agent names (ua-parser-js's device type; none is a desktop). */
export type DeviceClass = 'desktop' | 'mobile' | 'tablet' | 'other'

/** The campaign fields of a click: the link's defaults, overridden by the visit's own query. */
export interface ClickCampaign {
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
  utmTerm: string | null
  utmContent: string | null
  sub1: string | null
  sub2: string | null
  sub3: string | null
  sub4: string | null
  sub5: string | null
}

/** One counted click as the flush writes it: nothing that identifies the person (no address, no user agent). */
export interface ClickRow extends ClickCampaign {
  /** Deterministic for a visitor, a link and an hour (clickId): a second click in the hour is the same row. */
  id: string
  at: Date
  /** `at` truncated to its UTC hour: the raw table's partition key and, with id, its unique key. */
  hour: Date
  /** The day of `at` in the project's time zone, YYYY-MM-DD: the rollups' day. */
  day: string
  affiliateId: number
  /** The link the click came through; null for the affiliate's referral code itself. */
  linkId: number | null
  /** The visitor was new to the affiliate that day (its first counted click of the day). */
  newVisitor: boolean
  referrerHost: string | null
  /** ISO 3166-1 alpha-2, upper case; null when unknown. */
  country: string | null
  device: DeviceClass
  /** The browser's name as the parser gives it (Chrome, Mobile Safari, ...); null when unknown. */
  browser: string | null
}

/** What a flush adds to one rollup row: (day, affiliate, link, source, medium, campaign, country, device). */
export interface ClickRollupDelta {
  day: string
  affiliateId: number
  linkId: number | null
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
  country: string | null
  device: DeviceClass
  clicks: number
  visitors: number
  /** Visits by crawlers and empty user agents: counted apart, never in clicks or visitors. */
  botClicks: number
}

export const CLICK_DIMENSIONS = [
  'link',
  'affiliate',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'sub1',
  'sub2',
  'sub3',
  'sub4',
  'sub5',
  'referrer',
  'country',
  'device',
  'browser',
] as const
/** What an analytics answer can be grouped by besides time. */
export type AnalyticsDimension = (typeof CLICK_DIMENSIONS)[number]
/** The click's field each dimension reads (the rollups' fields of their dimensions have the same names). */
export const DIMENSION_FIELDS: Readonly<Record<AnalyticsDimension, keyof ClickRow>> = {
  link: 'linkId',
  affiliate: 'affiliateId',
  utm_source: 'utmSource',
  utm_medium: 'utmMedium',
  utm_campaign: 'utmCampaign',
  utm_term: 'utmTerm',
  utm_content: 'utmContent',
  sub1: 'sub1',
  sub2: 'sub2',
  sub3: 'sub3',
  sub4: 'sub4',
  sub5: 'sub5',
  referrer: 'referrerHost',
  country: 'country',
  device: 'device',
  browser: 'browser',
}
/** The dimensions the rollups keep: a query grouped by one of these (or by time only) reads them, never the raw rows. */
export const ROLLUP_DIMENSIONS: readonly AnalyticsDimension[] = ['link', 'affiliate', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'device']

export type AnalyticsInterval = 'day' | 'week' | 'month'

/**
 * One read of the analytics query: the events of [from, to) (instants), bucketed by `interval`
 * in `timeZone` when given, grouped by `groupBy` when given, of one affiliate or link when given.
 */
export interface AnalyticsRead {
  from: Date
  to: Date
  timeZone: string
  /** The project's time zone: rollup days are its days, so only a read in it may use them. */
  projectTimeZone: string
  interval: AnalyticsInterval | null
  groupBy: AnalyticsDimension | null
  affiliateId?: number
  linkId?: number
}

/**
 * Whether a read is answered from the rollups: its group is one they keep (or none) and its time
 * zone is the project's (rollup days are project days; its from and to are then day starts
 * there). Else clicks come from the raw rows, and bot clicks, which have none, are 0.
 */
export function readsRollups(read: Pick<AnalyticsRead, 'groupBy' | 'timeZone' | 'projectTimeZone'>): boolean {
  return (read.groupBy === null || ROLLUP_DIMENSIONS.includes(read.groupBy)) && read.timeZone === read.projectTimeZone
}

/** A bucket's start (YYYY-MM-DD in the time zone; null without interval) and group key (null: none, or the value is unknown). */
export interface AnalyticsKey {
  start: string | null
  /** The group's value: a link's id as text, an affiliate's id as text, a UTM value, a country code, ... */
  group: string | null
}

export interface ClickFigures extends AnalyticsKey {
  clicks: number
  visitors: number
  botClicks: number
}

/**
 * Signups: referred users created in the range; conversions, revenue and commission: counted
 * (active) conversions created in the range, revenue of purchases in the project currency.
 * Grouped by a click dimension, each is grouped by the click it carries (null without one).
 */
export interface OutcomeFigures extends AnalyticsKey {
  signups: number
  conversions: number
  revenue: bigint
  commission: bigint
}

export interface AnalyticsRepository {
  /**
   * Writes the counted clicks: a row whose (id, hour) is stored already is skipped. Returns the
   * ids written. One statement per batch (multi-row); the rows of a month without a partition
   * go to the partition made for it first.
   */
  insertClicks(projectId: string, rows: readonly ClickRow[]): Promise<Set<string>>
  /** Adds the deltas to their rollup rows, creating them; in the order given (the caller sorts: concurrent flushes queue, never deadlock). */
  addRollups(projectId: string, deltas: readonly ClickRollupDelta[]): Promise<void>
  /**
   * Records visitors new to an affiliate on a day, as tracking.markVisitor does for one, in one
   * statement: returns the keys `${affiliateId}|${day}|${visitor}` that were new.
   */
  markVisitors(projectId: string, marks: readonly { affiliateId: number; day: string; visitor: string }[]): Promise<Set<string>>
  /** Clicks, visitors and bot clicks of the read (from the rollups when the read allows it, else the raw rows). */
  clickFigures(projectId: string, read: AnalyticsRead): Promise<ClickFigures[]>
  /** Signups, conversions, revenue and commission of the read. */
  outcomeFigures(projectId: string, read: AnalyticsRead): Promise<OutcomeFigures[]>
}

/** Months made ahead of the current one: when a SQL storage opens, and on each pruning pass. */
export const CLICK_MONTHS_AHEAD = 3

/**
 * Storage-wide upkeep of the raw clicks: partitions ahead, old months dropped (config
 * clicks.retentionMonths). Months are UTC months of a click's hour.
 */
export interface ClickPartitions {
  /** Makes the months from `from`'s through `months` later exist. Idempotent, safe across processes. */
  prepare(from: Date, months: number): Promise<void>
  /**
   * Drops the months wholly before `before`'s month; returns how many. The clicks of those months
   * kept elsewhere (SQL: in the default partition) are deleted too; the rollups stay.
   */
  dropBefore(before: Date): Promise<number>
}

/** A storage object that carries the clicks' partitions (every adapter of this package does). */
export interface WithClickPartitions {
  readonly clickPartitions: ClickPartitions
}
