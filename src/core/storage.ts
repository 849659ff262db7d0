// The domain store: what the core reads and writes (entities, the events it enqueues in the
// outbox, the delivery log). Entity-specific methods, no generic query language. Every method is
// scoped by projectId where rows belong to a project; a row of another project is reported as
// absent. Money is bigint minor units. The webhook dispatcher's outbox store and HTTP's keyed-state
// store are ports of their own (src/core/outbox-store.ts, src/core/keyed-state.ts).
import type { AuditLog } from './audit-log.js'
import type { Insert, ListWindow, Patch } from './entity-table.js'
import type { DayFigures, DayRange } from './commission-periods.js'
import type { MailQueue } from './mail-store.js'
import type {
  Affiliate,
  AffiliateStatus,
  ApiKeyRecord,
  Click,
  Conversion,
  ConversionType,
  Coupon,
  CouponStatus,
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  EventType,
  LedgerMovement,
  Page,
  Payout,
  PayoutRequest,
  PayoutRequestStatus,
  PayoutStatus,
  ProviderPayout,
  Project,
  ProviderEvent,
  ProviderEventStatus,
  ProviderLink,
  Referral,
  RuleSet,
  ReferralStatus,
  TotalsDelta,
  WebhookEndpoint,
} from './types.js'
import type { DailyCounts, TrackingRepository, VisitorSignal } from './tracking-storage.js'
import type { OpenCommission } from './payout-terms.js'

export { UniqueViolation, type UniqueConstraint } from './unique-violation.js'
export type { EntityTable, Insert, ListWindow, Patch } from './entity-table.js'

export interface ProjectRepository {
  /** The new project has settings version 1. */
  insert(project: Omit<Project, 'settingsVersion'>): Promise<Project>
  get(id: string): Promise<Project | null>
  getByName(name: string): Promise<Project | null>
  /** Writing settings adds one to settingsVersion. */
  update(id: string, patch: Pick<Partial<Project>, 'name' | 'settings'>): Promise<Project | null>
}

export interface ApiKeyRepository {
  insert(key: Insert<ApiKeyRecord>): Promise<ApiKeyRecord>
  findByHash(hash: string): Promise<ApiKeyRecord | null>
  list(projectId: string): Promise<ApiKeyRecord[]>
  /** Sets revokedAt when not yet revoked; false when absent or already revoked. */
  revoke(projectId: string, id: number, at: Date): Promise<boolean>
}

export interface AffiliateFilter extends ListWindow {
  /** Any of these statuses. */
  statuses?: AffiliateStatus[]
}

export interface AffiliateRepository {
  /** Emails arrive normalized (trimmed, lower case); codes are unique case-insensitively. */
  insert(affiliate: Insert<Affiliate>): Promise<Affiliate>
  get(projectId: string, id: number): Promise<Affiliate | null>
  getByEmail(projectId: string, email: string): Promise<Affiliate | null>
  /** The affiliate whose referral code or link alias this is (case-insensitively). */
  getByCode(projectId: string, code: string): Promise<Affiliate | null>
  /** Stores another link token of the affiliate (docs/attribution.md "Link aliases"); unique per project, case-insensitively. */
  insertAlias(projectId: string, affiliateId: number, alias: string, at: Date): Promise<void>
  /** The affiliate's link aliases, oldest first. */
  listAliases(projectId: string, affiliateId: number): Promise<string[]>
  /**
   * Inserts each row whose email and referral code are free in one write (an import's chunk,
   * docs/migrating.md): null in place of a row not inserted because either is taken (also by an
   * earlier row of the same call). Not an error: the transaction goes on.
   */
  insertMany(affiliates: ReadonlyArray<Insert<Affiliate>>): Promise<Array<Affiliate | null>>
  /** The affiliates of the project among these ids, in any order (absent ones left out). */
  getMany(projectId: string, ids: readonly number[]): Promise<Affiliate[]>
  /** Which of these codes (lower case) are a referral code or a link alias in the project. */
  takenCodes(projectId: string, codes: readonly string[]): Promise<Set<string>>
  /**
   * Reads the row and holds it against concurrent writers until the transaction ends; readers and
   * inserts that only refer to it (a click, a coupon) do not wait. The first lock of a write that
   * decides from the affiliate's state (docs/architecture.md "Lock order").
   */
  lockForUpdate(projectId: string, id: number): Promise<Affiliate | null>
  update(projectId: string, id: number, patch: Patch<Omit<Affiliate, 'totals'>>): Promise<Affiliate | null>
  /** Atomically adds each delta to the running totals (never read-modify-write). */
  adjustTotals(projectId: string, id: number, delta: TotalsDelta): Promise<void>
  /**
   * Deletes the affiliate with its conversions, coupons, clicks, payouts and link aliases. Its referred users
   * stay, disassociated (affiliateId null); affiliates it was parent of lose their parent.
   */
  delete(projectId: string, id: number): Promise<boolean>
  /** Newest first (createdAt desc, id desc). */
  list(projectId: string, filter: AffiliateFilter): Promise<Page<Affiliate>>
}

export interface ReferralFilter extends ListWindow {
  affiliateId?: number
  status?: ReferralStatus
}

/** What the first purchase records beside its time: it is payment 1, `key` its payment (an invoice's id, or null), `terms` its rules. */
export interface FirstPayment {
  key: string | null
  terms: RuleSet
}

export interface ReferralRepository {
  insert(referral: Insert<Referral>): Promise<Referral>
  get(projectId: string, id: number): Promise<Referral | null>
  getByEmail(projectId: string, email: string): Promise<Referral | null>
  /** Reads the row and holds it against concurrent writers until the transaction ends: taken after its affiliate's lock. */
  lockForUpdate(projectId: string, id: number): Promise<Referral | null>
  update(projectId: string, id: number, patch: Patch<Referral>): Promise<Referral | null>
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
  list(projectId: string, filter: ReferralFilter): Promise<Page<Referral>>
}

export interface ConversionFilter extends ListWindow {
  type?: ConversionType
  affiliateId?: number
  referredUserId?: number
  paid?: boolean
  /** Inclusive. */
  from?: Date
  /** Exclusive. */
  to?: Date
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

export interface ConversionRepository {
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
  get(projectId: string, id: number): Promise<Conversion | null>
  getByReference(projectId: string, reference: string): Promise<Conversion | null>
  /** Throws UniqueViolation('conversion_reference') when the new reference is taken. */
  update(projectId: string, id: number, patch: Patch<Conversion>): Promise<Conversion | null>
  delete(projectId: string, id: number): Promise<boolean>
  /** The conversions whose parentConversionId is parentId (multi-tier shares), by id. */
  listChildren(projectId: string, parentId: number): Promise<Conversion[]>
  /** Newest first. */
  list(projectId: string, filter: ConversionFilter): Promise<Page<Conversion>>
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
}

export interface CreateReads {
  /** By day ascending; days without counts are absent. */
  days: DayFigures[]
  visitorSignals: readonly VisitorSignal[]
  /** null when not asked. */
  signups: number | null
  cardCustomers: string[]
}

export interface CouponFilter extends ListWindow {
  affiliateId?: number
  code?: string
  status?: CouponStatus
  /** Exact (case-sensitive, as providers' ids are). */
  processorCouponId?: string
}

export interface CouponRepository {
  /** Codes are unique per project, case-insensitively. */
  insert(coupon: Insert<Coupon>): Promise<Coupon>
  get(projectId: string, id: number): Promise<Coupon | null>
  getByCode(projectId: string, code: string): Promise<Coupon | null>
  update(projectId: string, id: number, patch: Patch<Coupon>): Promise<Coupon | null>
  delete(projectId: string, id: number): Promise<boolean>
  list(projectId: string, filter: CouponFilter): Promise<Page<Coupon>>
}

export interface ClickRepository {
  insert(click: Insert<Click>): Promise<Click>
}

export interface PayoutFilter extends ListWindow {
  affiliateId?: number
  /** Only payouts recorded at or before this moment. */
  upTo?: Date
}

export interface PayoutRepository {
  insert(payout: Insert<Payout>): Promise<Payout>
  /** Stores how many conversions the payout settled (known only after settling). */
  setConversionsSettled(projectId: string, id: number, count: number): Promise<void>
  get(projectId: string, id: number): Promise<Payout | null>
  list(projectId: string, filter: PayoutFilter): Promise<Page<Payout>>
  /** Per affiliate paid with paymentDate in [from, to): the sum of its payouts and how many, by affiliate id. */
  paidTotals(projectId: string, from: Date, to: Date): Promise<PaidTotal[]>
}

/** Payouts sent through a provider; their payouts' status moves with them (docs/payouts.md "Automatic payouts"). */
export interface ProviderPayoutRepository {
  insert(row: Insert<ProviderPayout>): Promise<ProviderPayout>
  getByPayout(projectId: string, payoutId: number): Promise<ProviderPayout | null>
  update(projectId: string, id: number, patch: Partial<Pick<ProviderPayout, 'state' | 'itemStatus' | 'reference' | 'reply' | 'updatedAt'>>): Promise<void>
  /** The provider payouts still processing, oldest first (of one affiliate when given). */
  listProcessing(projectId: string, affiliateId?: number): Promise<ProviderPayout[]>
  /** The payout a run made for the affiliate in the period (YYYY-MM), if any. */
  getByRun(projectId: string, affiliateId: number, period: string): Promise<ProviderPayout | null>
  /** Every payout runs made in the period, oldest first. */
  listByRun(projectId: string, period: string): Promise<ProviderPayout[]>
  /** Sets the status of the payout itself (and, once paid, how many conversions it settled). */
  setPayoutStatus(projectId: string, payoutId: number, status: PayoutStatus, conversionsSettled: number): Promise<void>
}

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
  /** The affiliate's mails not sent yet (queued, or being sent) become `skipped`: none goes out after an erasure. */
  dropMail(projectId: string, affiliateId: number, now: Date): Promise<void>
  /** The provider customer ids whose customer link holds this email (any case): provider and id. */
  customerIds(projectId: string, email: string): Promise<Array<{ provider: string; externalId: string }>>
}

export interface PayoutRequestFilter extends ListWindow {
  affiliateId?: number
  status?: PayoutRequestStatus
}

/** Affiliates' payout requests: at most one open per affiliate (the caller holds the affiliate's lock). */
export interface PayoutRequestRepository {
  insert(request: Insert<PayoutRequest>): Promise<PayoutRequest>
  /** The affiliate's open request, if any. */
  findOpen(projectId: string, affiliateId: number): Promise<PayoutRequest | null>
  /** Marks the affiliate's open requests paid by this payout; returns them as saved. */
  markPaid(projectId: string, affiliateId: number, payoutId: number, at: Date): Promise<PayoutRequest[]>
  /** Newest first. */
  list(projectId: string, filter: PayoutRequestFilter): Promise<Page<PayoutRequest>>
}

/** The affiliates' ledger movements, as recorded (docs/payouts.md "The ledger as of a date"). */
export interface LedgerRepository {
  record(movement: Insert<LedgerMovement>): Promise<void>
  /** Movements recorded after `after` (when given) and at or before `upTo`, of one affiliate when given; by createdAt, then id. */
  list(projectId: string, filter: { affiliateId?: number; after?: Date; upTo: Date }): Promise<LedgerMovement[]>
  /** Movements of conversions whose hold ends after `after` and at or before `upTo`, recorded while held (createdAt < holdUntil); by holdUntil, then id. */
  releasing(projectId: string, period: { after: Date; upTo: Date }): Promise<LedgerMovement[]>
}

export interface WebhookEndpointRepository {
  insert(endpoint: Insert<WebhookEndpoint>): Promise<WebhookEndpoint>
  get(projectId: string, id: number): Promise<WebhookEndpoint | null>
  list(projectId: string): Promise<WebhookEndpoint[]>
  update(projectId: string, id: number, patch: Patch<WebhookEndpoint>): Promise<WebhookEndpoint | null>
  /** Also deletes its deliveries and their attempts. */
  delete(projectId: string, id: number): Promise<boolean>
}

/** An event to record: its payload is a plain object the adapter serializes once, with JSON.stringify. */
export interface NewEvent {
  projectId: string
  type: EventType
  payload: Readonly<Record<string, unknown>>
  createdAt: Date
  /** Caused by imported history (docs/migrating.md): delivered to webhooks, never mailed. */
  quiet?: boolean
}

export interface DeliveryFilter extends ListWindow {
  endpointId?: number
  status?: DeliveryStatus
  eventType?: EventType
}

/** The outbox as the core uses it: events enqueued with the change that caused them, and the delivery log. */
export interface OutboxRepository {
  /**
   * Records the event and one pending delivery (nextAttemptAt = createdAt) for every active
   * endpoint of the project subscribed to its type. May store nothing when none is subscribed.
   */
  enqueue(event: NewEvent): Promise<void>
  getDelivery(projectId: string, id: number): Promise<Delivery | null>
  /** Newest first. */
  listDeliveries(projectId: string, filter: DeliveryFilter): Promise<Page<Delivery>>
  /** Oldest first. */
  listAttempts(projectId: string, deliveryId: number): Promise<DeliveryAttempt[]>
  /** Manual retry: status pending, due at `now`, lease cleared. False when absent or delivering. */
  requeue(projectId: string, id: number, now: Date): Promise<boolean>
  /** How many deliveries, in every project, are pending or being sent (the outbox backlog). */
  backlog(): Promise<number>
}

export interface ProviderEventFilter extends ListWindow {
  provider?: string
  status?: ProviderEventStatus
  reference?: string
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
export interface ProviderEventRepository {
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
  get(projectId: string, id: number): Promise<ProviderEvent | null>
  update(projectId: string, id: number, patch: Patch<ProviderEvent>): Promise<ProviderEvent | null>
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
  /** Newest first (createdAt desc, id desc). */
  list(projectId: string, filter: ProviderEventFilter): Promise<Page<ProviderEvent>>
  /** The provider's events waiting for any of `waitingFor`, oldest occurredAt first (then id). */
  listWaiting(projectId: string, provider: string, waitingFor: readonly string[]): Promise<ProviderEvent[]>
  /**
   * The provider's events still waiting for a key woken after they were last saved: the key's
   * `woken` link holds `at` (an ISO time) at or after the event's updatedAt, and before
   * `wokenBefore`. Oldest occurredAt first (then id), at most `limit`.
   */
  listWokenWaiting(projectId: string, provider: string, wokenBefore: Date, limit: number): Promise<ProviderEvent[]>
  /**
   * Creates the link (project, provider, kind, externalId), or merges its data into the saved
   * link's: the keys it gives replace the saved ones, the others stay. A link being saved by a
   * transaction that has not ended yet is waited for, also across processes.
   */
  saveLink(link: ProviderLink): Promise<void>
  /** saveLink for several links at once, in order; returns each key's link as saved (merged). */
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
  clicks: ClickRepository
  payouts: PayoutRepository
  ledger: LedgerRepository
  payoutRequests: PayoutRequestRepository
  providerPayouts: ProviderPayoutRepository
  webhookEndpoints: WebhookEndpointRepository
  outbox: OutboxRepository
  providerEvents: ProviderEventRepository
  tracking: TrackingRepository
  /** The mails the outbox's events became (docs/email.md), for the log and its retries. */
  mail: MailQueue
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
