// createAffiliateProgram: composes the use-cases of one project (the default one, or any by id)
// over a storage port. Every method validates its input and runs in one transaction, with the
// project's settings as stored at most settingsMaxAgeMs before the call (read again at the call's
// start when older), so processes sharing a database apply a change of settings within that time.
// program.transaction(fn) hands fn the same use-cases over a store bound to one open transaction.
import { isDeepStrictEqual } from 'node:util'
import { affiliatesService } from './affiliates/affiliates.js'
import { applicationsService } from './affiliates/applications.js'
import { auditEntriesService } from './project/audit-entries.js'
import { systemClock, type Clock } from './model/clock.js'
import { withConflicts } from './ports/conflicts.js'
import { createProjectContext, type ExchangeRates } from './rules/context.js'
import { conversionChanges } from './conversions/conversion-changes.js'
import { conversionCreation } from './conversions/conversion-create.js'
import { couponsService } from './affiliates/coupons.js'
import { linksService } from './affiliates/links.js'
import { linkSettings, type LinkOptions } from './rules/link-settings.js'
import { checkoutService } from './affiliates/checkout.js'
import { promotionCodesService } from './affiliates/promotion-codes.js'
import type { PromotionCodeIssuer } from './ports/promotion-codes.js'
import { NotFoundError, ValidationError } from './model/errors.js'
import type { FraudCheck } from './rules/fraud/check.js'
import { mailLogService } from './project/mail-log.js'
import { queueMonthlySummaries } from './project/mail-summaries.js'
import { keysService, keyVerifier, type KeyVerifier, type VerifiedKey } from './project/keys.js'
import { payoutsService } from './payouts/payouts.js'
import { payoutRunsService } from './payouts/payout-runs.js'
import { payoutsDueService } from './payouts/payouts-due.js'
import { payoutRequestsService } from './payouts/payout-requests.js'
import { providerPayoutsService } from './payouts/provider-payouts.js'
import { portalSignInService } from './affiliates/portal-sign-in.js'
import { embedService } from './affiliates/embed.js'
import { providerEventsService } from './provider-events/index.js'
import { newProjectId } from './model/random.js'
import { referralsService } from './affiliates/referrals.js'
import { statsService } from './project/stats.js'
import { analyticsService } from './project/analytics.js'
import { ledgerHistoryService } from './payouts/ledger-history.js'
import { visitsService } from './affiliates/visits.js'
import { rewardBrowserSignup, signupsRewarded } from './conversions/signup-reward.js'
import type { ProjectSettingsInput } from './model/schemas.js'
import { normalizeSettings } from './rules/settings.js'
import type { DomainStore, StorageTx, TransactionalStore } from './ports/storage.js'
import type { Project, ProjectSettings } from './model/types.js'
import { webhookEndpointsService } from './project/webhook-endpoints.js'
import { importsService } from './project/imports.js'
import { personalDataService } from './project/personal-data.js'
import { taxDetailsService } from './affiliates/tax-details.js'
import { taxIdCipher, type TaxIdKeys } from './model/tax-id-cipher.js'

export interface AffiliateProgramOptions {
  /** Any storage adapter (memoryStorage, pgliteStorage, postgresStorage); the program uses its domain store. */
  storage: DomainStore
  /** @default the system clock */
  clock?: Clock
  /** Needed only for conversions in a currency other than the project's. */
  exchangeRates?: ExchangeRates
  /**
   * Your own fraud check, beside the settings' fraud rules (docs/fraud.md): called for every
   * conversion about to be created with what the rules saw; 'review' holds it and 'reject'
   * records it rejected, with the reason you give. The strictest of it and the rules wins.
   * @default none
   */
  fraudCheck?: FraudCheck
  /** Id or name of the project this program serves by default. @default 'default' (created when absent) */
  project?: string
  /**
   * Settings for the default project, saved at start: they replace the stored ones, and a key
   * left out takes its default (not the value stored by an earlier start). Without this option
   * the stored settings stay as they are.
   */
  settings?: ProjectSettingsInput
  /** Called when `settings` replaced different stored settings, with those and the saved project. */
  onSettingsReplaced?: (previous: ProjectSettings, saved: Project) => void
  /**
   * How old (by the program's clock) the settings a call applies may be: a call starting later
   * reads them again, so a change made by another process applies within this time.
   * @default 1000
   */
  settingsMaxAgeMs?: number
  /**
   * The keys tax ids are encrypted with (docs/tax-details.md): the current one and earlier ones
   * still accepted for decryption. Without it, tax details cannot be saved or read.
   */
  taxIdKeys?: TaxIdKeys
  /**
   * Creates affiliates' promotion codes at Stripe (`stripePromotionCodes({ secretKey })` from
   * affiliate-kit/stripe; docs/incentives.md "Promotion codes"). Without it,
   * `promotionCodes.create` answers a ConflictError (409).
   */
  promotionCodes?: PromotionCodeIssuer
  /**
   * Where affiliates' links are reached and where they may send visitors (docs/links.md): the
   * tracking handler's public URL and prefix (a link's short URL and QR code), the origins a
   * destination may point at, the short domains. A bad value fails the start naming it.
   * @default no public URL (links without a short domain have no short URL), any http(s) destination, no short domains
   */
  links?: LinkOptions
}

/** Default of settingsMaxAgeMs: one read of the project per second, at most, per busy project. */
export const SETTINGS_MAX_AGE_MS = 1000

function projectUseCases(ctx: ReturnType<typeof createProjectContext>) {
  const affiliates = affiliatesService(ctx)
  const conversions = { ...conversionCreation(ctx), ...conversionChanges(ctx) }
  const referrals = referralsService(ctx)
  const coupons = couponsService(ctx)
  const payouts = { ...payoutsService(ctx), ...payoutsDueService(ctx), ...payoutRequestsService(ctx) }
  const stats = statsService(ctx)
  const providerPayouts = providerPayoutsService(ctx)
  return {
    projectId: ctx.projectId,
    affiliates,
    /** Applications from the portal's application page: apply, approve, reject (docs/onboarding.md). */
    applications: applicationsService(ctx),
    referrals,
    conversions,
    coupons,
    /** The affiliates' links: keys, destinations, short domains, UTM defaults, QR codes, and what a token names (docs/links.md). */
    links: linksService(ctx),
    /**
     * A referral's checkout (docs/incentives.md): the fields that give the referred customer its
     * incentive and attribute the sale at Stripe, Paddle or Lemon Squeezy, and the banner's offer.
     */
    checkout: checkoutService(ctx),
    /** Affiliates' own promotion codes, created at Stripe and recorded as their coupons (docs/incentives.md). */
    promotionCodes: promotionCodesService(ctx, ctx.promotionCodes, coupons),
    payouts,
    /** Payouts sent through PayPal Payouts or Stripe Connect (docs/payouts.md "Automatic payouts"). */
    providerPayouts,
    /** Payout runs: every due affiliate paid through its provider, once per period (docs/payouts.md "Payout runs"). */
    payoutRuns: payoutRunsService(ctx, { due: payouts.due, providerPayouts }),
    /** Bulk creates for an import (affiliate-kit/importers), chunk by chunk (docs/migrating.md). */
    imports: importsService(ctx),
    /** Sign-in requests of the affiliate portal (affiliate-kit/portal). */
    portal: portalSignInService(ctx),
    /** Tokens that open an affiliate's embedded dashboard in the host's app (docs/embed.md). */
    embed: embedService(ctx, affiliates),
    /** Payment-provider events (affiliate-kit/stripe, /paddle, /lemon-squeezy, /polar, /braintree): received, swept, replayed, and what each did. */
    providerEvents: providerEventsService(ctx, { referrals, conversions, coupons, providerPayouts }),
    keys: keysService(ctx),
    /** Webhook endpoints and their delivery log; deliveries are sent by a dispatcher (affiliate-kit/webhooks). */
    webhooks: webhookEndpointsService(ctx),
    /**
     * The mail log, and the monthly summaries to queue (once a day is enough: a month's are queued
     * once); mails are sent by a mail dispatcher (affiliate-kit/email).
     */
    mail: {
      ...mailLogService(ctx),
      queueMonthlySummaries: (input: { month?: string } = {}) => queueMonthlySummaries(ctx, { affiliates }, input),
    },
    /** Counts a click on an affiliate's referral link. */
    trackClick: affiliates.trackClick,
    /** Visits through referral links and signups reported from the browser (affiliate-kit/tracking). */
    tracking: visitsService(ctx, { rewarded: signupsRewarded, reward: (tx, input) => rewardBrowserSignup(ctx, tx, input) }),
    /** Clicks, visitors, signups, purchases, revenue and commission per day, week or month. */
    stats,
    /** Clicks, visitors, bot clicks, signups, conversions, revenue and commission by link, campaign, country, device... (docs/analytics.md). */
    analytics: analyticsService(ctx),
    /** Legal name, country, form type and the encrypted tax id of affiliates; the year-end totals (docs/tax-details.md). */
    taxDetails: taxDetailsService(ctx),
    /** GDPR export and erase of an affiliate or a referred user (docs/privacy.md). */
    personalData: personalDataService(ctx),
    /** Balances as of a date and the ledger's movements over a period (docs/payouts.md). */
    ledger: ledgerHistoryService(ctx),
    async settings(): Promise<ProjectSettings> {
      return (await ctx.project()).settings
    },
    /** The admin console's audit log: who changed what from the console (docs/admin.md "Audit log"). */
    auditLog: auditEntriesService(ctx),
  }
}

/** The use-cases of one project, and a way to run several of them in one transaction. */
export interface ProjectScope extends ReturnType<typeof projectUseCases> {
  /**
   * Opens one transaction of the storage and runs fn with this project's use-cases bound to it:
   * what they read sees what they wrote, and what they write (changes, events, audit entries)
   * commits together or, when fn throws, not at all. Inside fn, call only the scope it is given
   * (a call of the program itself would wait for the transaction to end) and nothing slow (the
   * transaction stays open meanwhile). On that scope, transaction(fn) runs fn in the same transaction.
   * @example await program.transaction(async (tx) => { await tx.affiliates.update(id, { status: 'blocked' }); await tx.auditLog.record(entry) })
   */
  transaction<T>(fn: (scope: ProjectScope) => Promise<T>): Promise<T>
}

/** A store whose repositories are the open transaction's and whose transaction(fn) runs fn in it. */
function storeWithin(tx: StorageTx): TransactionalStore {
  return { ...tx, transaction: (fn) => fn(tx) }
}

/**
 * Makes every use-case of a scope first load its project (its existence and fresh settings):
 * before the call's transactions start, so a read of the settings never runs inside one.
 */
function requireProject(scope: ProjectScope, load: () => Promise<unknown>): ProjectScope {
  const guard = <F extends (...args: never[]) => unknown>(method: F): F =>
    (async (...args: Parameters<F>) => {
      await load()
      return method(...args)
    }) as F
  const guarded: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(scope)) {
    if (typeof member === 'function') guarded[name] = guard(member as (...args: never[]) => unknown)
    else if (member && typeof member === 'object') {
      guarded[name] = Object.fromEntries(
        Object.entries(member).map(([key, value]) => [key, typeof value === 'function' ? guard(value as (...args: never[]) => unknown) : value]),
      )
    } else guarded[name] = member
  }
  return guarded as unknown as ProjectScope
}

export interface AffiliateProgram extends ProjectScope {
  readonly clock: Clock
  /** The same API for another project of this storage. */
  project(projectId: string): ProjectScope
  projects: {
    create(input: { name: string; settings?: ProjectSettingsInput }): Promise<Project>
    get(projectId: string): Promise<Project>
    /** Replaces the project's settings: a key left out takes its default (read, change, write back to patch). */
    updateSettings(projectId: string, settings: ProjectSettingsInput): Promise<Project>
  }
  /** The project and scopes of a presented API key; null when unknown or revoked. */
  verifyApiKey(key: string): Promise<VerifiedKey | null>
  /** A verifyApiKey of its own, remembering the digests of the keys it saw (one per HTTP handler). */
  keyVerifier(): KeyVerifier
  /** Resolves once the storage answers a trivial query; rejects when it cannot be reached. */
  ping(): Promise<void>
  /** How many webhook deliveries, in every project of the storage, are pending or being sent. */
  deliveryBacklog(): Promise<number>
  /** Closes the storage (stop a webhook dispatcher first). */
  close(): Promise<void>
}

export async function createAffiliateProgram(options: AffiliateProgramOptions): Promise<AffiliateProgram> {
  const storage = options.storage
  const clock = options.clock ?? systemClock
  // A malformed key fails the start, naming which key is wrong.
  const taxIds = options.taxIdKeys ? taxIdCipher(options.taxIdKeys) : null
  const links = linkSettings(options.links)
  const maxAge = options.settingsMaxAgeMs ?? SETTINGS_MAX_AGE_MS
  /** Each project as last read, and when the read started (clock ms). */
  const cache = new Map<string, { project: Project; readAt: number }>()
  /** Reads in progress, shared by the calls starting meanwhile. */
  const reads = new Map<string, Promise<Project>>()
  const remember = (project: Project, readAt = clock.now().getTime()) => {
    const cached = cache.get(project.id)
    // A read that started before a write of this process may end after it: the newer version stays.
    if (cached && cached.project.settingsVersion > project.settingsVersion) return
    cache.set(project.id, { project, readAt })
  }

  async function readProject(projectId: string): Promise<Project> {
    const project = await storage.projects.get(projectId)
    if (!project) throw new NotFoundError('project not found', 'projectId')
    return project
  }

  /**
   * The project as cached (read when never read): what the use-cases see within a call. Never a
   * read in progress: a call inside its transaction must not wait for a query that waits for the
   * transaction's connection (PGlite has one).
   */
  function loadProject(projectId: string): Promise<Project> {
    const cached = cache.get(projectId)
    return cached ? Promise.resolve(cached.project) : freshProject(projectId)
  }

  /** The project, read again when the cached one is older than maxAge. */
  function freshProject(projectId: string): Promise<Project> {
    const now = clock.now().getTime()
    const cached = cache.get(projectId)
    if (cached && now - cached.readAt < maxAge && now >= cached.readAt) return Promise.resolve(cached.project)
    let reading = reads.get(projectId)
    if (!reading) {
      reading = readProject(projectId).then((project) => (remember(project, now), cache.get(projectId)!.project))
      const done = () => reads.delete(projectId)
      reading.then(done, done)
      reads.set(projectId, reading)
    }
    return reading
  }

  /**
   * Inside a transaction: the cached project (program.transaction read it fresh before opening the
   * transaction), else a read through the transaction. Never a read of the root storage: it would
   * wait for the transaction's connection (PGlite has one).
   */
  async function projectWithin(tx: StorageTx, projectId: string): Promise<Project> {
    const cached = cache.get(projectId)
    if (cached) return cached.project
    const project = await tx.projects.get(projectId)
    if (!project) throw new NotFoundError('project not found', 'projectId')
    return project
  }

  const base = { clock, exchangeRates: options.exchangeRates, taxIds, fraudCheck: options.fraudCheck, promotionCodes: options.promotionCodes ?? null, links }

  /** The project's use-cases over one open transaction; built for each program.transaction call (the console's actions). */
  function transactionScope(tx: StorageTx, projectId: string): ProjectScope {
    const ctx = createProjectContext({ ...base, storage: storeWithin(tx) }, projectId, () => projectWithin(tx, projectId))
    const scope: ProjectScope = { ...projectUseCases(ctx), transaction: (fn) => fn(scope) }
    return scope
  }

  const scopes = new Map<string, ProjectScope>()
  function scopeFor(projectId: string): ProjectScope {
    let scope = scopes.get(projectId)
    if (!scope) {
      const useCases = projectUseCases(createProjectContext({ ...base, storage }, projectId, () => loadProject(projectId)))
      // A PostgreSQL adapter may run the transaction's function again (deadlock, serialization): each attempt gets its own scope.
      const transaction: ProjectScope['transaction'] = (fn) => storage.transaction((tx) => fn(transactionScope(tx, projectId)))
      scope = requireProject({ ...useCases, transaction }, () => freshProject(projectId))
      scopes.set(projectId, scope)
    }
    return scope
  }

  const projects: AffiliateProgram['projects'] = {
    async create({ name, settings }) {
      if (typeof name !== 'string' || name.trim() === '' || name.length > 100) {
        throw new ValidationError('name', 'name must be 1 to 100 characters')
      }
      const project = { id: newProjectId(), name: name.trim(), settings: normalizeSettings(settings), createdAt: clock.now() }
      return withConflicts(() => storage.projects.insert(project))
    },
    get: freshProject,
    async updateSettings(projectId, settings) {
      await freshProject(projectId)
      const updated = await storage.projects.update(projectId, { settings: normalizeSettings(settings) })
      if (!updated) throw new NotFoundError('project not found', 'projectId')
      remember(updated)
      return updated
    },
  }

  const wanted = options.project ?? 'default'
  let home: Project | null = null
  // Generated ids start with proj_: anything else is most likely a name, looked up by name first (one query per start).
  const byId = () => storage.projects.get(wanted)
  const byName = () => storage.projects.getByName(wanted)
  home = wanted.startsWith('proj_') ? ((await byId()) ?? (await byName())) : ((await byName()) ?? (await byId()))
  if (!home) {
    try {
      home = await projects.create({ name: wanted, ...(options.settings ? { settings: options.settings } : {}) })
    } catch (error) {
      // Another process created it first.
      home = await storage.projects.getByName(wanted)
      if (!home) throw error
    }
  } else if (options.settings && !isDeepStrictEqual(normalizeSettings(options.settings), home.settings)) {
    // Settings unchanged since the last start are not written again.
    const previous = home.settings
    remember(home)
    home = await projects.updateSettings(home.id, options.settings)
    options.onSettingsReplaced?.(previous, home)
  }
  remember(home)

  const program: AffiliateProgram = {
    ...scopeFor(home.id),
    clock,
    project: scopeFor,
    projects,
    verifyApiKey: keyVerifier(storage),
    keyVerifier: () => keyVerifier(storage),
    ping: () => storage.ping(),
    deliveryBacklog: () => storage.outbox.backlog(),
    close: () => storage.close(),
  }
  return program
}
