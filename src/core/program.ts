// createAffiliateProgram: composes the use-cases of one project (the default one, or any by id)
// over a storage port. Every method validates its input and runs in one transaction.
import { affiliatesService } from './affiliates.js'
import { systemClock, type Clock } from './clock.js'
import { withConflicts } from './conflicts.js'
import { createProjectContext, type ExchangeRates } from './context.js'
import { conversionChanges } from './conversion-changes.js'
import { conversionCreation } from './conversion-create.js'
import { couponsService } from './coupons.js'
import { NotFoundError, ValidationError } from './errors.js'
import { keysService, verifyApiKey, type VerifiedKey } from './keys.js'
import { payoutsService } from './payouts.js'
import { portalSignInService } from './portal-sign-in.js'
import { providerEventsService } from './provider-events.js'
import { newProjectId } from './random.js'
import { referralsService } from './referrals.js'
import { statsService } from './stats.js'
import { visitsService } from './visits.js'
import { eventType, id, validate, type ProjectSettingsInput } from './schemas.js'
import { normalizeSettings } from './settings.js'
import type { StoragePort } from './storage.js'
import type { EventType, Project, ProjectSettings } from './types.js'
import { webhookEndpointsService } from './webhook-endpoints.js'

export interface AffiliateProgramOptions {
  storage: StoragePort
  /** @default the system clock */
  clock?: Clock
  /** Needed only for conversions in a currency other than the project's. */
  exchangeRates?: ExchangeRates
  /** Id or name of the project this program serves by default. @default 'default' (created when absent) */
  project?: string
  /**
   * Settings for the default project, saved at start: they replace the stored ones, and a key
   * left out takes its default (not the value stored by an earlier start). Without this option
   * the stored settings stay as they are.
   */
  settings?: ProjectSettingsInput
  /**
   * Builds what sends webhooks (start/stop/dispatch). The `affiliate-kit` entry point supplies
   * the real dispatcher; the core itself never does I/O beyond the storage port.
   */
  webhookRunner?: (program: AffiliateProgram) => WebhookRunner
}

/** Delivers due webhook deliveries; implemented in src/webhooks. */
export interface WebhookRunner {
  /** Keeps dispatching in the background until stop(). */
  start(options?: { concurrency?: number; pollIntervalMs?: number }): void
  /** Stops claiming and waits for in-flight sends to finish. */
  stop(): Promise<void>
  /** One pass: claims and sends every due delivery once; resolves with how many were attempted. */
  dispatch(): Promise<number>
  /** Sends generated sample data of `eventType` to one endpoint now, records it in the log. */
  sendTest(projectId: string, endpointId: number, eventType: EventType): Promise<TestDeliveryResult>
}

export interface TestDeliveryResult {
  success: boolean
  /** The receiver's HTTP status; 0 when no answer came. */
  status: number
  /** The receiver's response text (truncated), or the error when no answer came. */
  response: string
}

function projectScope(ctx: ReturnType<typeof createProjectContext>, runner: () => WebhookRunner) {
  const affiliates = affiliatesService(ctx)
  const conversions = { ...conversionCreation(ctx), ...conversionChanges(ctx) }
  return {
    projectId: ctx.projectId,
    affiliates,
    referrals: referralsService(ctx),
    conversions,
    coupons: couponsService(ctx),
    payouts: payoutsService(ctx),
    /** Sign-in requests of the affiliate portal (affiliate-kit/portal). */
    portal: portalSignInService(ctx),
    /** Payment-provider events received (affiliate-kit/stripe, /paddle, /lemon-squeezy) and what each did. */
    providerEvents: providerEventsService(ctx),
    keys: keysService(ctx),
    webhooks: {
      ...webhookEndpointsService(ctx),
      /** Starts the background dispatcher (one per program, serving every project). */
      start: (options?: Parameters<WebhookRunner['start']>[0]) => runner().start(options),
      stop: () => runner().stop(),
      dispatch: () => runner().dispatch(),
      /** Test delivery (POST /api/project/{projectId}/webhooks/{webhookId}/test). */
      test: async (webhookId: number, type: EventType) =>
        runner().sendTest(ctx.projectId, validate(id, webhookId, 'webhookId'), validate(eventType, type, 'eventType')),
    },
    /** Counts a click on an affiliate's referral link. */
    trackClick: affiliates.trackClick,
    /** Visits through referral links and signups reported from the browser (affiliate-kit/tracking). */
    tracking: visitsService(ctx),
    /** Clicks, visitors, signups, purchases, revenue and commission per day, week or month. */
    stats: statsService(ctx),
    async settings(): Promise<ProjectSettings> {
      return (await ctx.project()).settings
    },
  }
}

export type ProjectScope = ReturnType<typeof projectScope>

/** Makes every use-case of a scope first check that its project exists (cached after once). */
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
  return guarded as ProjectScope
}

export interface AffiliateProgram extends ProjectScope {
  readonly storage: StoragePort
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
  close(): Promise<void>
}

export async function createAffiliateProgram(options: AffiliateProgramOptions): Promise<AffiliateProgram> {
  const { storage } = options
  const clock = options.clock ?? systemClock
  const cache = new Map<string, Project>()

  async function loadProject(projectId: string): Promise<Project> {
    const cached = cache.get(projectId)
    if (cached) return cached
    const project = await storage.projects.get(projectId)
    if (!project) throw new NotFoundError('project not found', 'projectId')
    cache.set(projectId, project)
    return project
  }

  let runner: WebhookRunner | undefined
  const getRunner = (): WebhookRunner => {
    if (!runner) {
      if (!options.webhookRunner) throw new Error('no webhook runner: pass webhookRunner, or import createAffiliateProgram from affiliate-kit')
      runner = options.webhookRunner(program)
    }
    return runner
  }

  const scopes = new Map<string, ProjectScope>()
  function scopeFor(projectId: string): ProjectScope {
    let scope = scopes.get(projectId)
    if (!scope) {
      const base = { storage, clock, exchangeRates: options.exchangeRates }
      const unguarded = projectScope(createProjectContext(base, projectId, () => loadProject(projectId)), getRunner)
      // The home project is known to exist; any other is checked before each use.
      scope = projectId === home?.id ? unguarded : requireProject(unguarded, () => loadProject(projectId))
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
    get: loadProject,
    async updateSettings(projectId, settings) {
      await loadProject(projectId)
      const updated = await storage.projects.update(projectId, { settings: normalizeSettings(settings) })
      if (!updated) throw new NotFoundError('project not found', 'projectId')
      cache.set(projectId, updated)
      return updated
    },
  }

  const wanted = options.project ?? 'default'
  let home: Project | null = null
  home = (await storage.projects.get(wanted)) ?? (await storage.projects.getByName(wanted))
  if (!home) {
    try {
      home = await projects.create({ name: wanted, ...(options.settings ? { settings: options.settings } : {}) })
    } catch (error) {
      // Another process created it first.
      home = await storage.projects.getByName(wanted)
      if (!home) throw error
    }
  } else if (options.settings) {
    home = await projects.updateSettings(home.id, options.settings)
  }
  cache.set(home.id, home)

  const program: AffiliateProgram = {
    ...scopeFor(home.id),
    storage,
    clock,
    project: scopeFor,
    projects,
    verifyApiKey: (key) => verifyApiKey(storage, key),
    async close() {
      if (runner) await runner.stop()
      await storage.close()
    },
  }
  return program
}
