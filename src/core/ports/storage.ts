// The domain store: what the core reads and writes (entities, the events it enqueues in the
// outbox, the delivery log). An entity's plain operations are its table's (the generic contract of
// entity-table.ts, filtered only by the filters entity-filters.ts declares); the methods named here
// are the statements of their own (counted inserts, claims, ledger sums). Every method is scoped by
// projectId where rows belong to a project; a row of another project is reported as absent. Money
// is bigint minor units. The webhook dispatcher's outbox store and HTTP's keyed-state
// store are ports of their own (src/core/ports/outbox-store.ts, src/core/ports/keyed-state.ts).
import type { AuditLog } from './audit-log.js'
import type { EntityTable, Insert, Patch } from './entity-table.js'
import type {
  AffiliateFilter,
  ApiKeyFilter,
  ConversionFilter,
  CouponFilter,
  DeliveryAttemptFilter,
  DeliveryFilter,
  LedgerFilter,
  LinkFilter,
  MailAttemptFilter,
  NoFilter,
  PayoutFilter,
  PayoutRequestFilter,
  ProviderEventFilter,
  ProviderPayoutFilter,
  ReferralFilter,
} from './entity-filters.js'
import type { MailQueue } from './mail-queue.js'
import type {
  Affiliate,
  OpenCommission,
  ApiKeyRecord,
  Click,
  Conversion,
  Coupon,
  Delivery,
  DeliveryAttempt,
  EventType,
  LedgerMovement,
  Link,
  MailAttempt,
  Payout,
  PayoutRequest,
  ProviderPayout,
  Project,
  ProviderEvent,
  ProviderEventStatus,
  ProviderLink,
  Referral,
  RuleSet,
  TotalsDelta,
  WebhookEndpoint,
} from '../model/types.js'
import type { DailyCounts, DayFigures, DayRange, TrackingRepository, VisitorSignal } from './tracking-storage.js'
import type { AnalyticsRepository } from './analytics.js'

export { UniqueViolation, type UniqueConstraint } from './unique-violation.js'
export type { EntityTable, Insert, ListWindow, Patch } from './entity-table.js'
export type * from './entity-filters.js'

export interface ProjectRepository {
  /** The new project has settings version 1. */
  insert(project: Omit<Project, 'settingsVersion'>): Promise<Project>
  get(id: string): Promise<Project | null>
  getByName(name: string): Promise<Project | null>
  /** Writing settings adds one to settingsVersion. */
  update(id: string, patch: Pick<Partial<Project>, 'name' | 'settings'>): Promise<Project | null>
}

/** A key is revoked by setting revokedAt while it is unrevoked (update with `{ unrevoked: true }` expected). */
export interface ApiKeyRepository extends Pick<EntityTable<ApiKeyRecord, ApiKeyFilter>, 'insert' | 'all' | 'update'> {
  /** In any project: the key presented names its project. */
  findByHash(hash: string): Promise<ApiKeyRecord | null>
}

/**
 * Emails arrive normalized (trimmed, lower case); codes are unique case-insensitively. lockForUpdate
 * is the first lock of a write that decides from the affiliate's state; an update never changes
 * the totals; delete also deletes its conversions, coupons, clicks, payouts and links, its
 * referred users stay, disassociated (affiliateId null), and affiliates it was parent of lose their
 * parent. Lists newest first (createdAt desc, id desc).
 */
export interface AffiliateRepository extends EntityTable<Affiliate, AffiliateFilter, Patch<Omit<Affiliate, 'totals'>>> {
  /** The affiliate whose referral code or link key this is (case-insensitively). */
  getByCode(projectId: string, code: string): Promise<Affiliate | null>
  /**
   * Inserts each row whose email and referral code are free in one write (an import's chunk,
   * docs/migrating.md): null in place of a row not inserted because either is taken (also by an
   * earlier row of the same call). Not an error: the transaction goes on.
   */
  insertMany(affiliates: ReadonlyArray<Insert<Affiliate>>): Promise<Array<Affiliate | null>>
  /** Which of these codes (lower case) are a referral code or a link key in the project. */
  takenCodes(projectId: string, codes: readonly string[]): Promise<Set<string>>
  /** Atomically adds each delta to the running totals (never read-modify-write). */
  adjustTotals(projectId: string, id: number, delta: TotalsDelta): Promise<void>
}

/** What a token names (LinkRepository.resolve): the affiliate, and its link when the token is a link key. */
export interface ResolvedToken {
  affiliate: Affiliate
  /** Null when the token is the affiliate's referral code. */
  link: Link | null
}

/**
 * Affiliates' links (docs/links.md): keys are unique per project, case-insensitively (an insert or
 * update breaking it throws UniqueViolation('link_key')); `all` oldest first.
 */
export interface LinkRepository extends EntityTable<Link, LinkFilter> {
  /**
   * The affiliate whose referral code or link key the token is (case-insensitively; the code
   * first), with the link; null when it is neither. One statement on the two unique indexes.
   */
  resolve(projectId: string, token: string): Promise<ResolvedToken | null>
}

/** What the first purchase records beside its time: it is payment 1, `key` its payment (an invoice's id, or null), `terms` its rules. */
export interface FirstPayment {
  key: string | null
  terms: RuleSet
}

/** lockForUpdate is taken after the affiliate's lock. */
export interface ReferralRepository extends EntityTable<Referral, ReferralFilter> {
  /**
   * Records the referred user's first purchase at `at` (firstPurchaseAt and conversionDate `at`,
   * conversionStatus `converted`, payments 1, lastPayment and its rules from `payment`) unless one is recorded; then it writes nothing and returns null.
   * A transaction recording one that has not ended yet is waited for, also across processes.
   */
  markFirstPurchase(projectId: string, id: number, at: Date, payment: FirstPayment): Promise<Referral | null>
  /** The commission rules in force at the referred user's first purchase (for `commission.grandfather`), kept beside it; null before one. */
  termsOf(projectId: string, id: number): Promise<RuleSet | null>
  /**
   * Counts one more payment of the referred user (payments + 1, lastPayment = `key`), unless `key`
   * is not null and is the payment counted last (another line of the same invoice): then it
   * counts nothing. Returns the count after, or null when absent. Concurrent calls queue on the row.
   */
  recordPayment(projectId: string, id: number, key: string | null): Promise<number | null>
}

export type ConversionInsertResult =
  | { inserted: true; conversion: Conversion; counted?: CountedState }
  | { inserted: false; existing: Conversion }

/**
 * What a counted insert left, answered when `ConversionCounts.answerCounted` asks: what the
 * affiliate's tier and bonuses are settled from. Written by the insert, so read after its row locks:
 * concurrent conversions of the affiliate on the same day see each other's counts.
 */
export interface CountedState {
  /** The affiliate's recorded tier and its status as its totals write left them; null when it is gone. */
  affiliate: Pick<Affiliate, 'tier' | 'status'> | null
  /** Its figures of `counts.day` after the write; null when the day's counters were not written (nothing to add). */
  day: DayFigures | null
}

/** What a new conversion adds to its affiliate's running totals and to the counters of its day. */
export interface ConversionCounts {
  totals: TotalsDelta
  /** YYYY-MM-DD in the project's time zone. */
  day: string
  daily: Partial<DailyCounts>
  /**
   * When the new conversion's ledger movement (docs/payouts.md) is recorded, written with it (on
   * SQL in the same statement); absent: no movement is recorded.
   */
  ledgerAt?: Date
  /** Answer `counted` with the result (insert only, not insertMany). */
  answerCounted?: boolean
}

export interface SettleRequest {
  projectId: string
  affiliateId: number
  /** Money available: the affiliate's credit plus the payout amount. */
  budget: bigint
  now: Date
  payoutId: number
}

/** An update throws UniqueViolation('conversion_reference') when the new reference is taken. */
export interface ConversionRepository extends Omit<EntityTable<Conversion, ConversionFilter>, 'insert'> {
  /**
   * Inserts unless the project already has a conversion with the same non-null reference, in
   * which case nothing is written and that conversion is returned. Must be decided by a unique
   * index (atomic across processes), not by a prior read. With `counts`, an inserted conversion
   * is counted in the same write: `counts.totals` added to its affiliate's totals (as
   * affiliates.adjustTotals) and `counts.daily` to its day (as tracking.addDaily); a duplicate
   * counts nothing.
   */
  insert(conversion: Insert<Conversion>, counts?: ConversionCounts): Promise<ConversionInsertResult>
  /**
   * insert with counts for many conversions in a few statements (an import's chunk): each must
   * have a reference; null in place of one whose reference is taken (also by an earlier one of
   * the same call), which writes and counts nothing. Run it in a transaction: the counts are
   * separate statements from the rows.
   */
  insertMany(conversions: ReadonlyArray<{ conversion: Insert<Conversion>; counts: ConversionCounts }>): Promise<Array<Conversion | null>>
  /** Unpaid `active` conversions of the affiliate with holdUntil > now: their sum and earliest release. */
  heldSummary(projectId: string, affiliateId: number, now: Date): Promise<{ amount: bigint; nextReleaseAt: Date | null }>
  /** Unpaid `active` conversions of the project (of one affiliate when given), oldest first (createdAt, then id). */
  listOpen(projectId: string, affiliateId?: number): Promise<OpenCommission[]>
  /**
   * Walks the affiliate's unpaid `active` conversions with holdUntil <= now, oldest first
   * (createdAt, then id), marking each paid (paidByPayoutId = payoutId) while the running sum
   * stays within budget; stops at the first that does not fit. Returns how many and their sum.
   */
  settleOldestFirst(request: SettleRequest): Promise<{ count: number; amount: bigint }>
  /**
   * What creating a conversion of the affiliate reads besides the affiliate's row, each part only
   * when asked: one round trip on SQL (docs/architecture.md). Parts not asked for come back empty.
   */
  createReads(projectId: string, affiliateId: number, query: CreateReadsQuery): Promise<CreateReads>
}

export interface CreateReadsQuery {
  /** The affiliate's day figures over these days (performance tiers, bonuses). */
  days: DayRange | null
  /** The signals recorded of this click visitor of the affiliate (docs/fraud.md "Signals"). */
  visitorSignalsOf: string | null
  /** How many signup conversions the project has with this click visitor. */
  signupsOf: string | null
  /** The customer emails of the project's conversions paid with this card fingerprint (at most 100, distinct). */
  cardCustomersOf: string | null
  /** How many signup conversions the affiliate has created in [from, to) (a day of the project's time zone); absent or null: not asked. */
  affiliateSignupsIn?: { from: Date; to: Date } | null
}

export interface CreateReads {
  /** By day ascending; days without counts are absent. */
  days: DayFigures[]
  visitorSignals: readonly VisitorSignal[]
  /** null when not asked. */
  signups: number | null
  cardCustomers: string[]
  /** null (or absent) when not asked. */
  affiliateSignups?: number | null
}

/** Codes are unique per project, case-insensitively. */
export type CouponRepository = EntityTable<Coupon, CouponFilter>

export type ClickRepository = Pick<EntityTable<Click, NoFilter>, 'insert'>

export interface PayoutRepository extends EntityTable<Payout, PayoutFilter> {
  /** Per affiliate paid with paymentDate in [from, to): the sum of its payouts and how many, by affiliate id. */
  paidTotals(projectId: string, from: Date, to: Date): Promise<PaidTotal[]>
}

/** Payouts sent through a provider; their payouts' status moves with them (docs/payouts.md "Automatic payouts"). */
export type ProviderPayoutRepository = EntityTable<ProviderPayout, ProviderPayoutFilter, Partial<Pick<ProviderPayout, 'state' | 'itemStatus' | 'reference' | 'reply' | 'updatedAt'>>>

export interface PaidTotal {
  affiliateId: number
  amount: bigint
  count: number
}

/** One text to replace, as `from` may be written in any case, by `to`. */
export interface TextReplacement {
  from: string
  to: string
}

/**
 * Erasure (docs/privacy.md): the texts of a person replaced in every stored text of the project
 * (every text and JSON column of its rows, also the idempotency answers, webhook bodies, provider
 * payloads, delivery attempts and the audit log), not only in the rows the core changes itself.
 */
export interface TextScrub {
  /** Replaced wherever they occur: identifiers (emails, provider customer ids). */
  everywhere: readonly TextReplacement[]
  /**
   * Replaced only in a stored value that also holds one of the `everywhere` texts (names: the
   * same word may well be someone else's elsewhere). A JSON value counts as one value.
   */
  alongside: readonly TextReplacement[]
}

export interface ErasureRepository {
  scrub(projectId: string, scrub: TextScrub): Promise<void>
  /** The provider customer ids whose customer link holds this email (any case): provider and id. */
  customerIds(projectId: string, email: string): Promise<Array<{ provider: string; externalId: string }>>
}

/** Affiliates' payout requests: at most one open per affiliate (the caller holds the affiliate's lock). */
export type PayoutRequestRepository = EntityTable<PayoutRequest, PayoutRequestFilter>

/**
 * The affiliates' ledger movements, as recorded (docs/payouts.md "The ledger as of a date"); `all`
 * by createdAt, then id.
 */
export interface LedgerRepository extends Pick<EntityTable<LedgerMovement, LedgerFilter>, 'insert' | 'all'> {
  /** Movements of conversions whose hold ends after `after` and at or before `upTo`, recorded while held (createdAt < holdUntil); by holdUntil, then id. */
  releasing(projectId: string, period: { after: Date; upTo: Date }): Promise<LedgerMovement[]>
}

/** delete also deletes its deliveries and their attempts. */
export type WebhookEndpointRepository = EntityTable<WebhookEndpoint, NoFilter>

/** An event to record: its payload is a plain object the adapter serializes once, with JSON.stringify. */
export interface NewEvent {
  projectId: string
  type: EventType
  payload: Readonly<Record<string, unknown>>
  createdAt: Date
  /** Caused by imported history (docs/migrating.md): delivered to webhooks, never mailed. */
  quiet?: boolean
}

/** The outbox as the core uses it: events enqueued with the change that caused them, and the delivery log. */
export interface OutboxRepository {
  /**
   * Records the event and one pending delivery (nextAttemptAt = createdAt) for every active
   * endpoint of the project subscribed to its type. May store nothing when none is subscribed.
   */
  enqueue(event: NewEvent): Promise<void>
  /** How many deliveries, in every project, are pending or being sent (the outbox backlog). */
  backlog(): Promise<number>
}

export type ProviderEventInsertResult = { inserted: true; event: ProviderEvent } | { inserted: false; existing: ProviderEvent }

/**
 * A `record` accepted: `saved` answers the event and its links as saved. Inside a transaction it
 * may answer only once the transaction commits (a SQL adapter writes it with the COMMIT), and it
 * fails when the transaction does: await it after the transaction, never inside it.
 */
export interface ProviderEventRecording {
  saved: Promise<{ event: ProviderEvent; links: ProviderLink[] }>
}

/** What claimNew did: inserted the event (or took over the stale one recorded), or found it recorded and left it. */
export type ProviderEventClaimResult = { claimed: true; event: ProviderEvent } | { claimed: false; existing: ProviderEvent }

/** A waiting event claimedWaiting moved to `processing`: the key it waits for and that key's `woken` mark (null: none yet). */
export interface ClaimedWaiting {
  waitingFor: string | null
  mark: string | null
}

/** Payment-provider events as received (the log operators read) and the links they taught us. */
export interface ProviderEventRepository extends Omit<EntityTable<ProviderEvent, ProviderEventFilter>, 'insert'> {
  /**
   * Inserts unless the project already has the same (provider, eventId), in which case nothing
   * is written and that event is returned. Decided by a unique index (atomic across processes).
   */
  insert(event: Insert<ProviderEvent>): Promise<ProviderEventInsertResult>
  /**
   * Inserts the event and saves `links` (as saveLinks), in one step. When the project already has
   * the same (provider, eventId), it fails with UniqueViolation('provider_event') and nothing is
   * written; inside a transaction, the transaction fails with it. A SQL adapter writes it with the
   * transaction's COMMIT (one round trip fewer), so call it last: a read of the event or its links
   * later in the same transaction may not see them.
   */
  record(event: Insert<ProviderEvent>, links: readonly ProviderLink[]): Promise<ProviderEventRecording>
  /**
   * Moves the event to `processing` (updatedAt = now) when it is in `condition.status` and, with
   * updatedBefore, was last updated before it: one caller wins a waiting or stale event.
   */
  claim(projectId: string, id: number, condition: { status: ProviderEventStatus; updatedBefore?: Date }, now: Date): Promise<boolean>
  /**
   * Records a new event as `processing` (`event.status`), in one step across processes: inserted
   * when the project has no such (provider, eventId); when it has, taken over (status
   * `processing`, updatedAt = event.updatedAt) if that one was left `processing` since before
   * `staleBefore`, else left as it is and returned as `existing`.
   */
  claimNew(event: Insert<ProviderEvent>, staleBefore: Date): Promise<ProviderEventClaimResult>
  /**
   * Moves a `waiting` event to `processing` (updatedAt = now), returning the key it waits for and
   * that key's `woken` link's `mark` as they were at the latest when it was claimed; null when the
   * event was not waiting (another caller claimed it).
   */
  claimWaiting(projectId: string, id: number, now: Date): Promise<ClaimedWaiting | null>
  /**
   * Writes an event's outcome (`patch`) and saves `links` (as saveLinks), in one step: together
   * or not at all, also outside a transaction. The event as updated (null when absent) and each
   * key's link as saved.
   */
  saveOutcome(projectId: string, id: number, patch: Patch<ProviderEvent>, links: readonly ProviderLink[]): Promise<{ event: ProviderEvent | null; links: ProviderLink[] }>
  /**
   * The provider's events still waiting for a key woken after they were last saved: the key's
   * `woken` link holds `at` (an ISO time) at or after the event's updatedAt, and before
   * `wokenBefore`. Oldest occurredAt first (then id), at most `limit`.
   */
  listWokenWaiting(projectId: string, provider: string, wokenBefore: Date, limit: number): Promise<ProviderEvent[]>
  /**
   * Creates each link (project, provider, kind, externalId), in order, or merges its data into the
   * saved link's: the keys it gives replace the saved ones, the others stay. A link being saved by
   * a transaction that has not ended yet is waited for, also across processes. Returns each key's
   * link as saved (merged).
   */
  saveLinks(links: readonly ProviderLink[]): Promise<ProviderLink[]>
  getLink(projectId: string, provider: string, kind: string, externalId: string): Promise<ProviderLink | null>
}

export interface StorageTx {
  projects: ProjectRepository
  apiKeys: ApiKeyRepository
  affiliates: AffiliateRepository
  referrals: ReferralRepository
  conversions: ConversionRepository
  coupons: CouponRepository
  links: LinkRepository
  clicks: ClickRepository
  payouts: PayoutRepository
  ledger: LedgerRepository
  payoutRequests: PayoutRequestRepository
  providerPayouts: ProviderPayoutRepository
  webhookEndpoints: WebhookEndpointRepository
  outbox: OutboxRepository
  /**
   * The delivery log: the deliveries the outbox made (a manual retry: pending, due now, lease
   * cleared, unless being sent: `{ statusOtherThan: 'delivering' }` expected), and each one's
   * attempts (by id: oldest first).
   */
  deliveries: Pick<EntityTable<Delivery, DeliveryFilter>, 'get' | 'list' | 'update'>
  deliveryAttempts: Pick<EntityTable<DeliveryAttempt, DeliveryAttemptFilter>, 'all'>
  providerEvents: ProviderEventRepository
  tracking: TrackingRepository
  /** Link clicks, their rollups, and the reads of the analytics query (docs/analytics.md). */
  analytics: AnalyticsRepository
  /** The mails the outbox's events became (docs/email.md), for the log and its retries. */
  mail: MailQueue
  /** Each mail's attempts (by id: oldest first). */
  mailAttempts: Pick<EntityTable<MailAttempt, MailAttemptFilter>, 'all'>
  erasure: ErasureRepository
  /** The admin console's audit log: an entry written here commits with the change it records, or not at all. */
  auditLog: AuditLog
}

/**
 * What the use-cases run on: repositories and transactions. The domain store itself, or a store
 * bound to one open transaction (the scope program.transaction hands its function), whose
 * repositories are the transaction's and whose transaction(fn) runs fn in it.
 */
export interface TransactionalStore extends StorageTx {
  /**
   * Runs fn in one transaction: all its writes commit together or, when fn throws, none do.
   * Use only `tx` inside fn; calling the root storage there fails loudly (it would deadlock).
   */
  transaction<T>(fn: (tx: StorageTx) => Promise<T>): Promise<T>
}

/** The domain store the core runs on: its repositories, transactions, and the database's health. */
export interface DomainStore extends TransactionalStore {
  /** Resolves once the database answers a trivial query; rejects when it cannot be reached. */
  ping(): Promise<void>
  /** Closes the connections; calling it again (after program.close(), for instance) resolves as the first call did. */
  close(): Promise<void>
}
