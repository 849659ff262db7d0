// Creating a conversion: attribution, commission, hold, renewals, multi-tier, idempotency by
// reference (docs/commissions.md, attribution.md, idempotency.md), and preview, which runs the same plan writing nothing.
import { attribute, type MatchedBy } from '../rules/attribution.js'
import { applyAttributionModel, attributionModelApplies, moveReferredUser, type ModelledAttribution } from '../rules/attribution-model.js'
import { addDays } from '../model/clock.js'
import { calculateCommission, commissionSettingsFor, ONE, tier2Commission, type Commission } from '../rules/commission.js'
import { ruleSetFor, type Renewal, type RuleSet } from '../rules/commission-rules.js'
import { usdAmount, type ProjectContext } from '../rules/context.js'
import { BusyError, ConflictError, NotFoundError, ValidationError } from '../model/errors.js'
import { conversionEvents } from '../ports/events.js'
import { clickIdOf } from '../model/signed-referral.js'
import { clickVisitorOf, conversionFraud, fraudReads, type FraudVerdict } from '../rules/fraud/index.js'
import { ledgerDelta } from '../rules/ledger.js'
import { currencyOr, Currency, decimalText, type Decimal, type Money } from '../model/money.js'
import { createConversionInput, validate, type CreateConversionInput } from '../model/schemas.js'
import { UniqueViolation, type CountedState, type CreateReads, type CreateReadsQuery, type StorageTx } from '../ports/storage.js'
import type { DailyCounts } from '../ports/tracking-storage.js'
import type { Affiliate, CommissionSettings, Conversion, Project, Referral, StoredConversionStatus } from '../model/types.js'
import { conversionView, type ConversionView } from '../rules/views.js'
import { bonusRanges, payBonuses } from '../rules/bonuses.js'
import { figuresIn, spanOf, type DayFigures, type DayRange } from '../rules/commission-periods.js'
import { IMPORTED_REFERENCE_PREFIX } from '../model/mail-kinds.js'
import { recordTier, standingFrom, tierRanges, tierSettingsOf } from '../rules/performance-tiers.js'
import { lockAffiliates } from '../ports/row-locks.js'

type ConversionRequest = ReturnType<typeof parseRequest>

/** Validates and reads money exactly; needs no storage. */
function parseRequest(input: CreateConversionInput, project: Project) {
  const data = validate(createConversionInput, input)
  const currency = new Currency(project.settings.currency)
  const baseCurrency = currencyOr(data.baseValueCurrency ?? null, currency)
  const baseValue = data.baseValue === undefined ? null : baseCurrency.parse(data.baseValue, 'baseValue')
  if (data.type === 'purchase' && baseValue === null) {
    throw new ValidationError('baseValue', (name) => `${name('baseValue')} is required for purchases`)
  }
  const value = data.value === undefined ? null : currency.parse(data.value, 'value')
  return { data, currency, baseCurrency, baseValue, value }
}

interface Plan {
  affiliate: Affiliate
  matchedBy: MatchedBy
  referral: Referral | null
  /** A newer referral takes the referred user over (attribution settings). */
  moveReferral: boolean
  commission: Commission
  /** The rules that applied, kept on the customer at a first purchase (grandfathering). */
  rules: RuleSet
  /** The customer's payment this is (1: the first); null when it is not counted (signups, excluded products, no customer). */
  paymentNumber: number | null
  status: NewStatus
  /** Why it is held or rejected (docs/fraud.md); null when neither. */
  reviewReason: string | null
  holdUntil: Date
  fingerprint: string
  tier2: { parent: Affiliate; value: Money; rate: string } | null
  /** The day of the project's time zone the conversion counts on. */
  day: string
  /** The affiliate's tier and bonus periods, and its day figures over them read before the insert; null without either. */
  periods: Periods | null
}

interface Periods {
  settings: CommissionSettings
  tiers: DayRange[] | null
  bonuses: DayRange[]
  days: readonly DayFigures[]
  /** The tier held before this conversion (null for none, or without tiers). */
  held: string | null
}

/** The last periods asked per settings object, with their day: the creates of one day ask the same ones. */
const periodsByDay = new WeakMap<CommissionSettings, { day: string; tiers: DayRange[] | null; bonuses: DayRange[]; span: DayRange | null }>()

/** The tier and bonus periods `day` is in, and the days they span together (null without either). */
function periodsOn(settings: CommissionSettings, day: string) {
  const known = periodsByDay.get(settings)
  if (known?.day === day) return known
  const tiers = tierRanges(settings, day)
  const bonuses = bonusRanges(settings, day)
  const spanned = [...(tiers ?? []), ...bonuses]
  const periods = { day, tiers, bonuses, span: spanned.length > 0 ? spanOf(spanned) : null }
  periodsByDay.set(settings, periods)
  return periods
}

/** The create reads of a conversion that needs none (no tiers, no fraud signal from the storage). */
const NOTHING_READ: CreateReads = Object.freeze({ days: [], visitorSignals: [], signups: null, cardCustomers: [] }) as CreateReads

/**
 * Who the conversion credits. To write (`lock`), the rows it decides from are read again under
 * their locks, in the lock order (row-locks.ts): the credited affiliate (and the one a moving
 * customer leaves), then the customer, whose payment count and affiliate are then current. A
 * customer moved by a concurrent write since the first read is attributed again.
 */
async function attributed(ctx: ProjectContext, tx: StorageTx, project: Project, data: ConversionRequest['data'], now: Date, lock: boolean): Promise<ModelledAttribution> {
  const settings = project.settings.attribution
  for (let attempt = 1; ; attempt += 1) {
    const matched = await attribute(tx, ctx.projectId, data)
    const modelled = attributionModelApplies(matched, settings) ? await applyAttributionModel(tx, ctx.projectId, matched, settings, now) : { ...matched, moveReferral: false }
    if (!lock) return modelled
    const { referral } = modelled
    const locked = await lockAffiliates(tx, ctx.projectId, [modelled.affiliate.id, modelled.moveReferral ? (referral?.affiliateId ?? null) : null])
    const affiliate = locked.get(modelled.affiliate.id)
    if (!affiliate) throw new NotFoundError('affiliate not found (deleted by a concurrent request)', 'affiliateId')
    const current = referral && (await tx.referrals.lockForUpdate(ctx.projectId, referral.id))
    if (referral === null || current?.affiliateId === referral.affiliateId) return { ...modelled, affiliate, referral: current }
    if (attempt >= MAX_ATTRIBUTIONS) throw new BusyError('the customer kept moving between affiliates during this request; nothing was stored, send it again')
  }
}

/** Attributions of one create before it gives up on a customer that concurrent writes keep moving. */
const MAX_ATTRIBUTIONS = 3

async function plan(ctx: ProjectContext, tx: StorageTx, project: Project, request: ConversionRequest, fx: Decimal, now: Date, clickVisitor: string | null, lock: boolean): Promise<Plan> {
  const { data } = request
  const { affiliate, matchedBy, referral, moveReferral } = await attributed(ctx, tx, project, data, now, lock)
  if (referral && ONCE_PER_CUSTOMER.has(data.type)) await refuseSecondReward(ctx, tx, referral, data.type, data.reference)
  const tierSettings = tierSettingsOf(project.settings, affiliate)
  const day = ctx.dayIn(project, now)
  const { tiers, bonuses, span } = periodsOn(tierSettings, day)
  const signalSources = { type: data.type, clickVisitor, cardFingerprint: data.cardFingerprint ?? null }
  const signals = fraudReads(ctx, project, signalSources, day)
  // The figures of the tier and bonus periods and the fraud signals in one read (one round trip on SQL).
  const query: CreateReadsQuery = {
    days: span,
    visitorSignalsOf: signals.visitorSignalsOf,
    signupsOf: signals.signupsOf,
    cardCustomersOf: signals.cardCustomersOf,
    affiliateSignupsIn: signals.affiliateSignupsIn,
  }
  const asked = query.days !== null || query.visitorSignalsOf !== null || query.signupsOf !== null || query.cardCustomersOf !== null || query.affiliateSignupsIn !== null
  const reads = asked ? await tx.conversions.createReads(ctx.projectId, affiliate.id, query) : NOTHING_READ
  const standing = tiers && standingFrom(tierSettings, tiers, figuresIn(reads.days, tiers), request.currency)
  const rules: RuleSet = ruleSetFor(project.settings, affiliate, standing?.tier ?? null)
  const payment = data.type === 'purchase' && referral ? paymentOf(referral, data.paymentId ?? null) : null
  const renewal = payment?.renewal ?? null
  const calculated = calculateCommission({
    type: data.type,
    rules: renewal && referral && grandfathered(rules) ? ((await tx.referrals.termsOf(ctx.projectId, referral.id)) ?? rules) : rules,
    productId: data.productId ?? null,
    currency: request.currency,
    base: request.baseValue,
    fxRate: fx,
    renewal,
    now,
  })
  const commission: Commission =
    request.value === null ? calculated : { value: request.value, basis: 'explicit', source: 'explicit', commissionType: 'fixed', rate: null, amount: request.value.format() }
  const counted = data.type === 'purchase' && commission.basis !== 'excluded'
  const customerEmail = data.email ?? referral?.email ?? null
  const fraud = await conversionFraud(ctx, project, {
    type: data.type,
    clickVisitor,
    cardFingerprint: signalSources.cardFingerprint,
    affiliate,
    customerEmail,
    value: commission.value,
    base: request.baseValue && { value: request.baseValue, converted: request.baseValue.convert(request.currency, fx) },
    reference: data.reference ?? null,
    productId: data.productId ?? null,
    paymentProcessor: data.paymentProcessor ?? null,
  }, reads)
  const { status, reviewReason } = heldOrRejected(affiliate, fraud)
  const multiTier = project.settings.multiTier
  let tier2: Plan['tier2'] = null
  if (multiTier?.enabled && affiliate.parentId !== null) {
    const parent = await tx.affiliates.get(ctx.projectId, affiliate.parentId)
    if (parent) tier2 = { parent, value: tier2Commission(commission.value, multiTier.tier2Rate), rate: String(multiTier.tier2Rate) }
  }
  return {
    affiliate,
    matchedBy,
    referral,
    moveReferral,
    commission,
    rules,
    paymentNumber: counted ? (payment?.number ?? 1) : null,
    status,
    reviewReason,
    holdUntil: addDays(now, project.settings.holdPeriodDays),
    fingerprint: fingerprintOf(request, affiliate.id),
    tier2,
    day,
    periods: query.days ? { settings: tierSettings, tiers, bonuses, days: reads.days, held: standing?.tier?.name ?? null } : null,
  }
}

/** Types that reward a customer once (docs/commissions.md "Leads and trials"). */
const ONCE_PER_CUSTOMER: ReadonlySet<string> = new Set(['signup', 'trial'])

/**
 * A signup or trial earns once per customer: a second one of the same customer (another
 * reference) is a conflict. Read under the customer's lock when writing, so of two at once one wins.
 */
async function refuseSecondReward(ctx: ProjectContext, tx: StorageTx, referral: Referral, type: string, reference: string | undefined): Promise<void> {
  const rows = await tx.conversions.all(ctx.projectId, { referredUserId: referral.id, type: type as 'signup' | 'trial' })
  // The same reference again is a replay (or a conflict), which the create's reference check answers; a parent's share is not the customer's reward.
  const earlier = rows.find((row) => row.tier === 1 && (reference === undefined || row.reference !== reference))
  if (earlier) throw new ConflictError(`this customer already has a ${type} conversion (${earlier.id}): a ${type} earns once per customer`, 'email')
}

/** What makes two creates with one reference the same request: a replay, not a conflict. */
function fingerprintOf(request: ConversionRequest, affiliateId: number): string {
  return [request.data.type, request.baseValue?.minor ?? '', request.baseCurrency.code, request.value?.minor ?? '', affiliateId].join('|')
}

/**
 * Which payment of its customer a purchase is: lines of one payment (`paymentId`, an invoice's)
 * are one payment; a renewal is any payment after the first (docs/commissions.md "Renewals").
 */
function paymentOf(referral: Referral, paymentId: string | null): { number: number; renewal: Renewal | null } {
  const sameAsLast = paymentId !== null && referral.lastPayment === paymentId
  const number = sameAsLast ? Math.max(referral.payments, 1) : referral.payments + 1
  if (referral.firstPurchaseAt === null || (sameAsLast && number === 1)) return { number: 1, renewal: null }
  return { number: Math.max(number, 2), renewal: { firstPurchaseAt: referral.firstPurchaseAt, paymentNumber: Math.max(number, 2) } }
}

/** `commission.grandfather` of the rules in force: the affiliate's own, else its sub-program's, else the project's. */
function grandfathered(rules: RuleSet): boolean {
  return (rules.affiliate ?? rules.subProgram ?? rules.project).grandfather === true
}

type NewStatus = Extract<StoredConversionStatus, 'active' | 'review' | 'rejected'>

/** The status a new conversion is created in: rejected or held by the fraud rules, held when its affiliate is not active. */
function heldOrRejected(affiliate: Affiliate, fraud: FraudVerdict): { status: NewStatus; reviewReason: string | null } {
  if (fraud.action === 'reject') return { status: 'rejected', reviewReason: fraud.reason }
  const inactive = affiliate.status === 'active' ? null : `affiliate is ${affiliate.status}`
  if (fraud.action === 'review') return { status: 'review', reviewReason: inactive ? `${inactive}; ${fraud.reason}` : fraud.reason }
  return inactive ? { status: 'review', reviewReason: inactive } : { status: 'active', reviewReason: null }
}

/** Thrown inside the transaction so everything it wrote rolls back. */
class DuplicateReference {
  constructor(
    readonly existing: Conversion,
    readonly fingerprint: string,
    readonly matchedBy: MatchedBy,
  ) {}
}

export interface ConversionPreview {
  affiliateId: number
  matchedBy: MatchedBy
  basis: Commission['basis']
  /** Which rule earned it (docs/commissions.md "Precedence"). */
  ruleSource: Commission['source']
  productId: string | null
  commissionType: Commission['commissionType']
  /** Percentage applied, as decimal text; null for fixed amounts. */
  rate: string | null
  /** Fixed amount applied, as decimal text; null for percentages. */
  amount: string | null
  baseValue: string | null
  baseValueCurrency: string
  /** Rate from baseValueCurrency to the project currency. */
  fxRate: string
  value: string
  currency: string
  status: 'pending' | 'active' | 'review' | 'rejected'
  /** Why it would be held or rejected (docs/fraud.md); null when neither. */
  reviewReason: string | null
  holdUntil: Date
  subProgram: string | null
  tier2: { affiliateId: number; value: string; rate: string } | null
}

export interface CreateConversionResult {
  conversion: ConversionView
  attribution: { affiliateId: number; matchedBy: MatchedBy }
  /** True when the reference was seen before: nothing was created. */
  duplicate: boolean
  /** The parent's conversion in a multi-tier program. */
  tier2: ConversionView | null
}

export interface CreateConversionOptions {
  /**
   * Runs inside the conversion's transaction once it is written (not when the reference is a
   * duplicate): what it writes through `tx` commits or rolls back with the conversion, and its
   * throw rolls the conversion back. For bookkeeping that must not outlive or miss the conversion.
   */
  inTransaction?: (tx: StorageTx, created: CreateConversionResult) => Promise<void>
}

/** The project's conversion creation: `create` and `preview`, each a top-level function below. */
export function conversionCreation(ctx: ProjectContext) {
  return {
    create: (input: CreateConversionInput, options: CreateConversionOptions = {}): Promise<CreateConversionResult> => createConversion(ctx, input, options),
    /** The calculation create would make, writing nothing. */
    preview: (input: CreateConversionInput): Promise<ConversionPreview> => previewConversion(ctx, input),
  }
}

/**
 * Creates a conversion in one transaction, deciding under its affiliate's and customer's locks
 * (run again when a concurrent request created the same new customer first); a known reference
 * answers the conversion it created (`duplicate`), or a conflict when the payload differs.
 */
export async function createConversion(ctx: ProjectContext, input: CreateConversionInput, options: CreateConversionOptions = {}): Promise<CreateConversionResult> {
  const project = await ctx.project()
  const request = parseRequest(input, project)
  const { currency } = request
  // Both are plain values unless a rate must be looked up: await only then.
  const fxRate = exchange(ctx, request)
  const fx = fxRate instanceof Promise ? await fxRate : fxRate
  const usd = usdAmount(ctx, request.baseValue)
  const amountUsd = usd instanceof Promise ? await usd : usd
  const clickVisitor = request.data.click === undefined ? null : await clickVisitorOf(ctx, request.data.click)
  try {
    const now = ctx.clock.now()
    const at = occurrence(request, now)
    return await retryOnRace(() =>
      ctx.storage.transaction(async (tx) => {
        const { conversion, tier2, planned } = await writeConversion(ctx, tx, project, request, fx, amountUsd, at, clickVisitor)
        const created: CreateConversionResult = {
          conversion: conversionView(conversion, currency, now),
          attribution: { affiliateId: planned.affiliate.id, matchedBy: planned.matchedBy },
          duplicate: false,
          tier2: tier2 && conversionView(tier2, currency, now),
        }
        if (options.inTransaction) await options.inTransaction(tx, created)
        return created
      }),
    )
  } catch (error) {
    if (error instanceof DuplicateReference) return duplicateResult(ctx, error, currency)
    throw error
  }
}

/**
 * Creates a conversion inside the caller's transaction, with what it wrote before (a browser
 * signup's reward beside its referred user): run once, never again on a race, and without a base
 * value in another currency (no rate is looked up). `project` and `clickVisitor` (the visitor of
 * its click) are read before the transaction. A known reference answers as createConversion does.
 */
export async function createConversionIn(ctx: ProjectContext, tx: StorageTx, project: Project, input: CreateConversionInput, clickVisitor: string | null): Promise<CreateConversionResult> {
  const request = parseRequest(input, project)
  if (request.baseValue !== null && request.baseCurrency !== request.currency) throw new ValidationError('baseValueCurrency', (name) => `${name('baseValueCurrency')} must be the project currency here`)
  const now = ctx.clock.now()
  try {
    const { conversion, tier2, planned } = await writeConversion(ctx, tx, project, request, ONE, null, occurrence(request, now), clickVisitor)
    return {
      conversion: conversionView(conversion, request.currency, now),
      attribution: { affiliateId: planned.affiliate.id, matchedBy: planned.matchedBy },
      duplicate: false,
      tier2: tier2 && conversionView(tier2, request.currency, now),
    }
  } catch (error) {
    if (error instanceof DuplicateReference) return duplicateResult(ctx, error, request.currency)
    throw error
  }
}

/** The calculation createConversion would make (attribution, commission, hold, tier 2), writing nothing. */
export async function previewConversion(ctx: ProjectContext, input: CreateConversionInput): Promise<ConversionPreview> {
  const project = await ctx.project()
  const request = parseRequest(input, project)
  const fx = await exchange(ctx, request)
  const clickVisitor = await clickVisitorOf(ctx, request.data.click)
  const now = ctx.clock.now()
  const planned = await ctx.storage.transaction((tx) => plan(ctx, tx, project, request, fx, occurrence(request, now), clickVisitor, false))
  const slug = planned.affiliate.partnerSlug
  return {
    affiliateId: planned.affiliate.id,
    matchedBy: planned.matchedBy,
    basis: planned.commission.basis,
    ruleSource: planned.commission.source,
    productId: request.data.productId ?? null,
    commissionType: planned.commission.commissionType,
    rate: planned.commission.rate,
    amount: planned.commission.amount,
    baseValue: request.baseValue === null ? null : request.baseValue.format(),
    baseValueCurrency: request.baseCurrency.code,
    fxRate: decimalText(fx),
    value: planned.commission.value.format(),
    currency: project.settings.currency,
    status: planned.status === 'active' ? (planned.holdUntil.getTime() > now.getTime() ? 'pending' : 'active') : planned.status,
    reviewReason: planned.reviewReason,
    holdUntil: planned.holdUntil,
    subProgram: slug && commissionSettingsFor(project.settings, slug) !== project.settings.commission ? slug : null,
    tier2: planned.tier2 && {
      affiliateId: planned.tier2.parent.id,
      value: planned.tier2.value.format(),
      rate: planned.tier2.rate,
    },
  }
}

/** The rate from the base currency to the project's: ONE (no lookup) when they are the same. */
function exchange(ctx: ProjectContext, request: ConversionRequest): Decimal | Promise<Decimal> {
  if (request.baseValue === null || request.baseCurrency === request.currency) return ONE
  return ctx.fxRate(request.baseCurrency.code, request.currency.code, 'baseValueCurrency')
}

/** The answer to a known reference: the conversion it created, unless the payload differs (a conflict). */
function duplicateResult(ctx: ProjectContext, { existing, fingerprint, matchedBy }: DuplicateReference, currency: Currency): CreateConversionResult {
  if (existing.fingerprint !== fingerprint) {
    throw new ConflictError('a conversion with this reference exists with a different payload', 'reference')
  }
  return {
    conversion: conversionView(existing, currency, ctx.clock.now()),
    attribution: { affiliateId: existing.affiliateId, matchedBy },
    duplicate: true,
    tier2: null,
  }
}

/**
 * A replay of a stored reference (the same payload), found with plain reads: it is answered
 * without queueing for the affiliate's lock behind every other replay. Anything else (a new
 * reference, a payload that differs) is decided under the locks.
 */
async function replayOf(ctx: ProjectContext, tx: StorageTx, project: Project, request: ConversionRequest, now: Date): Promise<DuplicateReference | null> {
  const { reference } = request.data
  if (reference === undefined) return null
  const existing = await tx.conversions.first(ctx.projectId, { reference })
  if (!existing) return null
  const { affiliate, matchedBy } = await attributed(ctx, tx, project, request.data, now, false)
  const fingerprint = fingerprintOf(request, affiliate.id)
  return existing.fingerprint === fingerprint ? new DuplicateReference(existing, fingerprint, matchedBy) : null
}

/** Plans and writes the conversion (its referred user, counters and events), and its tier-2 conversion. */
async function writeConversion(ctx: ProjectContext, tx: StorageTx, project: Project, request: ConversionRequest, fx: Decimal, amountUsd: number | null, now: Date, clickVisitor: string | null) {
  const { data } = request
  const replay = await replayOf(ctx, tx, project, request, now)
  if (replay) throw replay
  const planned = await plan(ctx, tx, project, request, fx, now, clickVisitor, true)
  // A duplicate reference is found by the insert's unique index; what linking wrote before it rolls back.
  const { referral, signedUp, firstPurchase } = await linkReferral(ctx, tx, planned, data, now)
  const row: Omit<Conversion, 'id'> = {
    projectId: ctx.projectId,
    affiliateId: planned.affiliate.id,
    referredUserId: referral?.id ?? null,
    customerEmail: data.email ?? referral?.email ?? null,
    type: data.type,
    value: planned.commission.value.minor,
    baseValue: request.baseValue === null ? null : request.baseValue.minor,
    baseCurrency: request.baseValue === null ? null : request.baseCurrency.code,
    refundedBaseValue: 0n,
    paid: data.paid ?? false,
    paidByPayoutId: null,
    status: planned.status,
    holdUntil: planned.holdUntil,
    reference: data.reference ?? null,
    fingerprint: planned.fingerprint,
    couponCodeUsed: data.couponCodeUsed ?? null,
    basis: planned.commission.basis,
    commissionType: planned.commission.commissionType,
    commissionRate: planned.commission.rate,
    tier: 1,
    parentConversionId: null,
    refundReason: null,
    productId: data.productId ?? null,
    ruleSource: planned.commission.source,
    commissionAmount: planned.commission.amount,
    reviewReason: planned.reviewReason,
    clickVisitor,
    cardFingerprint: data.cardFingerprint ?? null,
    clickId: clickIdOf(data.click) ?? referral?.clickId ?? null,
    revenue: planned.status === 'active' ? purchaseRevenue(request, fx) : null,
    createdAt: now,
  }
  const { day } = planned
  // A new referred user is counted in the conversion's own write: one counter write per affiliate.
  const signups = signedUp ? { signups: 1 } : {}
  const daily = { ...dailyDelta(row, request, fx, firstPurchase), ...signups }
  const { periods } = planned
  // Tiers and bonuses are settled from what the insert left, when it adds to their figures or the
  // tier held is not the one recorded (a period closed): a signup or a held conversion changes neither.
  const settles = periods !== null && (daily.revenue !== undefined || daily.customers !== undefined || (periods.tiers !== null && periods.held !== planned.affiliate.tier))
  const result = await tx.conversions.insert(row, {
    totals: { ...ledgerDelta(null, row), ...signups },
    day,
    daily,
    ledgerAt: ctx.clock.now(),
    answerCounted: settles,
  })
  if (!result.inserted) throw new DuplicateReference(result.existing, planned.fingerprint, planned.matchedBy)
  const conversion = result.conversion
  await recordEvents(tx, conversion, planned.affiliate, referral, request, amountUsd)
  const tier2 = planned.tier2 ? await writeTier2(tx, conversion, planned.tier2, planned.status, { day, referral, request, amountUsd, recordedAt: ctx.clock.now() }) : null
  // Tiers and bonuses that imported history reaches are not news to the affiliate (docs/migrating.md): no mail.
  const quiet = conversion.reference?.startsWith(IMPORTED_REFERENCE_PREFIX) ?? false
  if (periods !== null && result.counted) await settleTierAndBonuses(ctx, tx, project, planned.affiliate, periods, result.counted, { day, currency: request.currency, quiet }, now)
  return { conversion, tier2, planned }
}

/**
 * After a conversion is counted: records the affiliate's tier if it changed and pays the bonuses
 * its figures now reach. From what the insert answered, read after it locked the affiliate's row
 * and its day's counters: concurrent conversions of the affiliate on the same day see each other's
 * counts (docs/commissions.md "Bonuses"); the period's other days are those read before the insert.
 */
async function settleTierAndBonuses(
  ctx: ProjectContext,
  tx: StorageTx,
  project: Project,
  affiliate: Affiliate,
  { settings, tiers, bonuses, days: before }: Periods,
  counted: CountedState,
  { day, currency, quiet }: { day: string; currency: Currency; quiet: boolean },
  now: Date,
): Promise<void> {
  const written = counted.affiliate
  if (!written) return
  const figures = (ranges: readonly DayRange[]) => figuresIn(before, ranges, counted.day)
  // Its tier as it stands now (a spread of the whole, frozen, affiliate costs microseconds per create).
  if (tiers) await recordTier(tx, { projectId: affiliate.projectId, id: affiliate.id, tier: written.tier }, standingFrom(settings, tiers, figures(tiers), currency), now, quiet)
  if (bonuses.length === 0) return
  const source = settings === project.settings.commission ? 'project' : 'sub_program'
  const context = { currency, holdPeriodDays: project.settings.holdPeriodDays, day, at: now, recordedAt: ctx.clock.now(), source, quiet } as const
  // Its tier and status as they stand now; the rest as the conversion's own events carry it.
  const current: Affiliate = { ...affiliate, tier: written.tier, status: written.status }
  await payBonuses(tx, current, settings, { ranges: bonuses, figures: figures(bonuses) }, context)
}

/** The parent affiliate's conversion in a multi-tier program, beside the one it derives from. */
async function writeTier2(
  tx: StorageTx,
  conversion: Conversion,
  tier2: NonNullable<Plan['tier2']>,
  status: StoredConversionStatus,
  context: { day: string; referral: Referral | null; request: ConversionRequest; amountUsd: number | null; recordedAt: Date },
): Promise<Conversion> {
  const { id: _id, ...stored } = conversion
  const tier2Row: Omit<Conversion, 'id'> = {
    ...stored,
    affiliateId: tier2.parent.id,
    value: tier2.value.minor,
    reference: conversion.reference === null ? null : `${conversion.reference}:tier2`,
    fingerprint: null,
    basis: 'tier2',
    // The multi-tier share is a project setting.
    ruleSource: 'project',
    commissionType: 'percentage',
    commissionAmount: null,
    commissionRate: tier2.rate,
    tier: 2,
    parentConversionId: conversion.id,
    // The sale is the child's: its revenue counts once.
    revenue: null,
    ...tier2Status(status, tier2.parent, conversion.reviewReason),
  }
  const inserted = await tx.conversions.insert(tier2Row, {
    totals: ledgerDelta(null, tier2Row),
    day: context.day,
    daily: tier2Row.status === 'active' ? { commission: tier2Row.value } : {},
    ledgerAt: context.recordedAt,
  })
  if (!inserted.inserted) throw new ConflictError('the tier-2 reference of this conversion is already used', 'reference')
  await recordEvents(tx, inserted.conversion, tier2.parent, context.referral, context.request, context.amountUsd)
  return inserted.conversion
}

/** The parent's share follows the child's status, held when the parent is not active (a rejected child stays rejected). */
function tier2Status(status: StoredConversionStatus, parent: Affiliate, reason: string | null): Pick<Conversion, 'status' | 'reviewReason'> {
  if (parent.status === 'active' || status === 'rejected') return { status, reviewReason: reason }
  const inactive = `parent affiliate is ${parent.status}`
  return { status: 'review', reviewReason: reason ? `${inactive}; ${reason}` : inactive }
}

/** Finds or creates the referred user and counts the payment on it (its first purchase, or one more); signedUp when it was created (to count). */
async function linkReferral(ctx: ProjectContext, tx: StorageTx, planned: Plan, data: ConversionRequest['data'], now: Date) {
  let referral = planned.referral
  let signedUp = false
  if (referral && planned.moveReferral) referral = await moveReferredUser(ctx, tx, referral, planned.affiliate, now)
  if (!referral && data.email !== undefined) {
    referral = await tx.referrals.insert({
      projectId: ctx.projectId,
      email: data.email,
      affiliateId: planned.affiliate.id,
      conversionStatus: 'pending',
      conversionDate: null,
      firstPurchaseAt: null,
      payments: 0,
      lastPayment: null,
      clickId: clickIdOf(data.click),
      createdAt: now,
    })
    signedUp = true
  }
  if (!referral || planned.paymentNumber === null) return { referral, signedUp, firstPurchase: false }
  const paymentId = data.paymentId ?? null
  if (referral.firstPurchaseAt === null) {
    // The plan read the customer under its lock: these checks only guard that promise.
    const marked = await tx.referrals.markFirstPurchase(ctx.projectId, referral.id, now, { key: paymentId, terms: planned.rules })
    if (!marked) throw new PaymentCountedMeanwhile()
    return { referral: marked, signedUp, firstPurchase: true }
  }
  const count = await tx.referrals.recordPayment(ctx.projectId, referral.id, paymentId)
  if (count !== planned.paymentNumber) throw new PaymentCountedMeanwhile()
  return { referral, signedUp, firstPurchase: false }
}

/** The conversion's outbox events (converted, and the referral's update), written with it. */
async function recordEvents(tx: StorageTx, conversion: Conversion, affiliate: Affiliate, referral: Referral | null, request: ConversionRequest, amountUsd: number | null) {
  const context = {
    affiliate,
    referred: referral,
    currency: request.currency,
    at: conversion.createdAt,
    paymentProcessor: request.data.paymentProcessor,
    productId: request.data.productId,
  }
  const events = conversionEvents(conversion, context)
  await tx.outbox.enqueue(events.converted())
  await tx.outbox.enqueue(events.updated(amountUsd))
}

/** What a new conversion adds to its day: counted ones only (review earns nothing); revenue in the project currency. */
function dailyDelta(conversion: Omit<Conversion, 'id'>, request: ConversionRequest, fx: Decimal, firstPurchase: boolean): Partial<DailyCounts> {
  if (conversion.status !== 'active') return {}
  const revenue = purchaseRevenue(request, fx)
  if (revenue === null) return { commission: conversion.value }
  return { commission: conversion.value, purchases: 1, revenue, ...(firstPurchase ? { customers: 1 } : {}) }
}

/** A purchase's base value in the project currency (what stats and analytics count as revenue); null for other types. */
function purchaseRevenue(request: ConversionRequest, fx: Decimal): bigint | null {
  if (request.data.type !== 'purchase' || request.baseValue === null) return null
  return request.baseValue.convert(request.currency, fx).minor
}

/** The time a conversion is computed at: its occurredAt when given and not in the future, else now. */
function occurrence(request: ConversionRequest, now: Date): Date {
  const at = request.data.occurredAt
  return at !== undefined && at.getTime() < now.getTime() ? at : now
}

/** Thrown inside the transaction when the customer's payment was counted by another write than the plan read (the lock order makes it a bug). */
class PaymentCountedMeanwhile extends Error {
  constructor() {
    super("the customer's payment count changed after it was read under its lock")
    this.name = 'PaymentCountedMeanwhile'
  }
}

/** Runs of a create when concurrent requests keep creating the same new customer first. */
const MAX_RUNS = 5

/**
 * Runs a write again when a concurrent request (another connection) committed the same new
 * referred user first: the next run finds it. Running out is a 503 (nothing was stored).
 */
async function retryOnRace<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work()
    } catch (error) {
      const race = (error instanceof UniqueViolation && error.constraint === 'referral_email') || error instanceof PaymentCountedMeanwhile
      if (!race) throw error
      if (attempt >= MAX_RUNS) throw new BusyError('concurrent requests kept creating this customer; nothing was stored, send the request again')
    }
  }
}
