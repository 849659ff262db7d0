// `affiliate-kit serve`: the standalone server. Validates config, listens (so a port in use stops
// the start before the database is opened or any key made), opens storage, syncs webhook endpoints from the config,
// ensures an API key, takes keys commands on embedded PGlite, runs the webhook dispatcher beside
// the program and the configured payment-provider endpoints, syncs automatic payouts on a
// schedule (config payoutProviders), and drains in-flight requests and
// deliveries on close.
// Logs through serverLogger (logging.ts); serves /healthz, /readyz and, with `metrics: true` in
// the config, /metrics.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AffiliateProgram } from '../core/program.js'
import { settingsChanges } from '../core/rules/settings.js'
import type { Project, ProjectSettings } from '../core/model/types.js'
import { portalSignInLink } from '../core/affiliates/portal-sign-in.js'
import type { Portal } from '../portal/portal.js'
import type { AppliedMigration } from '../adapters/sql/migrations.js'
import type { DiskSpaceStatus } from '../adapters/pglite/disk-space.js'
import { errorText, type Logger } from '../ops/logger.js'
import { loadConfig, projectSettingsOf, type ServerConfig } from './config.js'
import { openProgram } from './database.js'
import { configuredLinks } from './link-options.js'
import { tableExchangeRates } from './exchange-rates.js'
import { serveKeySocket } from './key-socket.js'
import { serverLogger, serverLogLevel, sqlLogRecords } from './logging.js'
import { withUnconfiguredProviders } from './provider-route.js'
import type { ProviderHandler } from '../providers/handler.js'
import { stripePromotionCodes } from '../providers/stripe/promotion-codes.js'
import { drainOnClose } from '../server/drain.js'
import type { NodeHandler } from '../server/node.js'
import type { PayoutSync } from './payouts-mount.js'

const FIRST_POLL_DELAY_MS = 250

/**
 * The modules of the server proper, loaded while the storage opens: embedded PGlite starts on
 * promises (reading and compiling its engine), and loading these meanwhile takes them off the
 * start's critical path instead of before it.
 */
async function serverModules() {
  const [{ createWebhookDispatcher }, { startPruning }, { createHandler }, { toNodeHandler }, { createMetrics }] = await Promise.all([
    import('../webhooks/dispatcher.js'),
    import('../adapters/pruning.js'),
    import('../http/handler.js'),
    import('../server/node.js'),
    import('../ops/metrics.js'),
  ])
  return { createWebhookDispatcher, startPruning, createHandler, toNodeHandler, createMetrics }
}

export interface ServeOptions {
  port: number
  host: string
  database?: string
  /** Where `database` came from, when the log should say so (e.g. DATABASE_URL). */
  databaseSource?: string
  config?: string
  apiKey?: string
  /** --log-level and --log-format (else LOG_LEVEL / LOG_FORMAT, else the config file). */
  logLevel?: string
  logFormat?: string
  /** AFFILIATE_KIT_LOG_SQL: a debug record per SQL statement the storage runs (text and parameter count). */
  logSql?: boolean
  /** Prints a plain line: the API key created at first start (never a log record). */
  log: (line: string) => void
}

async function ensureApiKey(program: AffiliateProgram, apiKey: string | undefined, logger: Logger, print: (line: string) => void) {
  if (apiKey) await program.keys.ensure(apiKey)
  const active = (await program.keys.list()).filter((key) => key.revokedAt === null)
  // Publishable keys (rgp_) open no API route: they are counted apart from the secret ones.
  const publishable = active.filter((key) => key.prefix.startsWith('rgp_'))
  const secret = active.filter((key) => !key.prefix.startsWith('rgp_'))
  const prefixes = (keys: typeof active) => keys.map((key) => key.prefix).join(', ')
  const browser = publishable.length > 0 ? `publishable keys: ${publishable.length} active (prefixes ${prefixes(publishable)})` : 'publishable keys: none'
  if (apiKey) {
    logger.info(`API key from AFFILIATE_KIT_API_KEY is active; ${browser}`, { publishable_keys: publishable.length })
    return
  }
  if (secret.length > 0) {
    logger.info(`API keys: ${secret.length} active (prefixes ${prefixes(secret)}); ${browser}; create another with "affiliate-kit keys create"`, {
      api_keys: secret.length,
      publishable_keys: publishable.length,
    })
    return
  }
  const { key } = await program.keys.create({ name: 'first start' })
  print(`created an API key (shown once, keep it): ${key}`)
}

const megabytes = (bytes: number) => `${Math.floor(bytes / 1048576)} MB`

/** PGlite's writes refused for want of disk space (adapters/pglite/disk-space.ts), and resumed. */
function logDiskSpace(logger: Logger, disk: DiskSpaceStatus): void {
  const fields = { free_bytes: disk.freeBytes, min_free_bytes: disk.minFreeBytes, path: disk.path }
  if (disk.low) logger.error(`disk full: ${megabytes(disk.freeBytes)} free for the database in ${disk.path}, under ${megabytes(disk.minFreeBytes)}; writes are refused (507) until space is freed, reads go on`, fields)
  else logger.info(`disk space freed: ${megabytes(disk.freeBytes)} free for the database in ${disk.path}; writes resume`, fields)
}

/** The answer while the server starts (the port is bound before the database is open). */
function starting(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' })
  response.end(JSON.stringify({ success: false, error: { code: 'starting', message: 'the server is starting; try again in a moment' } }))
}

function logMigrations(logger: Logger, applied: AppliedMigration[] | null): void {
  if (applied === null) logger.info('migrations: none (the memory storage has no schema)')
  else if (applied.length === 0) logger.info('migrations: none applied, the schema is up to date')
  else {
    const migrations = applied.map((migration) => `${migration.version} ${migration.name}`).join(', ')
    logger.info(`migrations applied: ${migrations}`, { migrations })
  }
}

/** One line per setting the config changed (settings hold no secrets: rates, amounts, days, flags). */
function logSettingsChanges(logger: Logger, { previous, saved }: { previous: ProjectSettings; saved: Project }): void {
  for (const { key, from, to } of settingsChanges(previous, saved.settings)) {
    logger.info(`settings: ${key} changed from ${from} to ${to} by the config (settings version ${saved.settingsVersion})`, { setting: key, settingsVersion: saved.settingsVersion })
  }
}

/** Creates or updates the config's endpoints, matched by URL; endpoints made elsewhere stay. */
async function syncWebhooks(program: AffiliateProgram, config: ServerConfig) {
  if (!config.webhooks?.length) return
  const existing = await program.webhooks.list()
  for (const wanted of config.webhooks) {
    const found = existing.find((endpoint) => endpoint.url === wanted.url)
    const mode = wanted.mode ?? 'service'
    if (!found) {
      await program.webhooks.create({ url: wanted.url, events: wanted.events, secret: wanted.secret ?? null, mode })
      continue
    }
    await program.webhooks.update(found.id, { events: wanted.events, mode, active: true })
    if (wanted.secret) await program.webhooks.rotateSecret(found.id, wanted.secret, 0)
  }
}

export async function serve(options: ServeOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const config = loadConfig(options.config)
  const logger = serverLogger({ level: options.logLevel, format: options.logFormat, config })
  if (options.logSql && serverLogLevel({ level: options.logLevel, config }) !== 'debug') {
    logger.warn('AFFILIATE_KIT_LOG_SQL is set, but sql records are debug records: set LOG_LEVEL=debug (or --log-level debug) to see them')
  }
  let migrations: AppliedMigration[] | null = null
  let replaced: { previous: ProjectSettings; saved: Project } | null = null
  const server = createServer()
  const drain = drainOnClose(server)
  // The port is bound before the database is opened: a port in use stops the start before it
  // changes anything (a migration, a key). Until the server is ready, requests get a 503.
  server.on('request', starting)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  // docs/incentives.md "Promotion codes": created at Stripe with the config's secret key.
  const stripeEntry = config.providers?.stripe as { secretKey?: string; apiBase?: string } | undefined
  const stripeKey = stripeEntry?.secretKey ? { secretKey: stripeEntry.secretKey, ...(stripeEntry.apiBase ? { apiBase: stripeEntry.apiBase } : {}) } : null
  const links = configuredLinks(config)
  const opening = openProgram(options.database, {
    // Without a config file the stored settings stay: another server may be running on them.
    ...(options.config ? { settings: projectSettingsOf(config) } : {}),
    onSettingsReplaced: (previous, saved) => (replaced = { previous, saved }),
    ...(config.exchangeRates ? { exchangeRates: tableExchangeRates(config.exchangeRates) } : {}),
    ...(stripeKey ? { promotionCodes: stripePromotionCodes(stripeKey) } : {}),
    ...(links ? { links } : {}),
    sql: {
      onMigration: ({ version, name, ms }) => logger.info(`migration ${version} ${name}: ran in ${ms} ms`, { migration: version, ms }),
      onMigrated: (applied) => (migrations = applied),
      ...(options.logSql ? { logSql: sqlLogRecords(logger) } : {}),
    },
    onDiskSpace: (disk) => logDiskSpace(logger, disk),
  })
  const loading = serverModules()
  loading.catch(() => {}) // a failure to open is the one reported
  const { program, storage, description, dataDir, diskSpace } = await opening.catch((error: unknown) => {
    server.close()
    throw error
  })
  const { createWebhookDispatcher, startPruning, createHandler, toNodeHandler, createMetrics } = await loading.catch(async (error: unknown) => {
    server.close()
    await program.close()
    throw error
  })
  const metrics = config.metrics ? createMetrics({ process: true, ...(diskSpace ? { disk: () => diskSpace.status() } : {}) }) : undefined
  const observer = { logger, metrics }
  const dispatcher = createWebhookDispatcher({ storage, logger, ...(metrics ? { metrics } : {}) })
  const mailMount = config.email ? await import('./mail-mount.js') : null
  // Mail is on from the start, not from the dispatcher's first pass: no request's mail is missed.
  if (mailMount) await storage.mail.enable(program.clock.now())
  let mail: ReturnType<NonNullable<typeof mailMount>['configuredMail']> | null = null
  let stopSummaries: (() => void) | null = null
  let closeKeySocket: (() => Promise<void>) | null = null
  /** Writes the clicks still waiting in the tracking surface's buffer. */
  let closeTracking: (() => Promise<void>) | null = null
  let providers = new Map<string, ProviderHandler>()
  let portal: Portal | null = null
  let payouts: PayoutSync | null = null
  try {
    await syncWebhooks(program, config)
    // The console's and the API's replays, in any project of the program.
    const providerEvents = {
      replay: (id: number, project?: string) => (project === undefined ? program : program.project(project)).providerEvents.replay(id),
    }
    const pages = config.portal?.enabled || config.admin?.enabled ? await import('./portal-mount.js') : null
    // The portal also makes the sign-in links of the API, the console and `portal link`.
    if (pages && config.portal?.enabled) portal = pages.configuredPortal(program, { sessions: storage.sessions, state: storage.keyedState, ...observer }, config.portal, config.tracking, mailMount ? { secret: mailMount.mailSecret(config.email!) } : undefined, config.payoutProviders?.stripe)
    // The portal mints the sign-in links of approval mails, on its public URL.
    if (mailMount) mail = mailMount.configuredMail(storage, config, logger, portal)
    if (config.payoutProviders) payouts = (await import('./payouts-mount.js')).payoutSync(program, config.payoutProviders, logger, storage.keyedState, observer)
    const payoutRuns = payouts ? { run: (projectId: string, input: { dryRun: boolean }) => payouts!.runs.run(projectId, { ...input, trigger: 'api' }) } : null
    const handler = createHandler(program, {
      ...(portal ? { portal } : {}),
      ...(payoutRuns ? { payoutRuns } : {}),
      state: storage.keyedState,
      webhooks: dispatcher,
      providerEvents,
      ...(config.shape ? { shape: config.shape } : {}),
      ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
      logger,
      health: true,
      metrics: metrics ?? false,
      auditLog: storage.auditLog,
    })
    // What the config leaves off is not even loaded: module loading is much of a start's time.
    let api: NodeHandler = toNodeHandler(handler)
    if (config.providers) {
      const { providerHandlers, withProviders } = await import('./providers-mount.js')
      providers = await providerHandlers(program, config.providers, (error) => logger.error('provider event error', { error: errorText(error) }), observer)
      api = withProviders(api, providers)
    }
    api = withUnconfiguredProviders(api, new Set(providers.keys()), observer)
    if (payouts?.paypalWebhooks) api = (await import('./payouts-mount.js')).withPayPalWebhooks(api, payouts.paypalWebhooks)
    if (config.tracking) {
      const tracking = (await import('./tracking-mount.js')).withTracking(program, storage.keyedState, config.tracking, api, observer)
      api = tracking.handler
      closeTracking = tracking.close
    }
    if (pages && portal && config.portal) api = pages.withPortal(api, portal, config.portal.path ?? '/portal')
    if (pages && config.admin?.enabled) {
      const { configuredAdmin } = await import('./admin-mount.js')
      const stores = {
        sessions: storage.sessions,
        auditLog: storage.auditLog,
        webhooks: dispatcher,
        providerEvents,
        state: storage.keyedState,
        ...observer,
        ...(portal ? { portal } : {}),
        ...(payouts ? { payoutRuns: { run: (input: { dryRun: boolean }) => payouts!.runs.run(program.projectId, { ...input, trigger: 'console' }) } } : {}),
      }
      // The console shows an application's answers under the labels of the portal's form.
      const admin = configuredAdmin(program, stores, config.admin, config.portal?.application?.fields)
      api = pages.withPortal(api, admin, config.admin.path ?? '/admin')
    }
    server.off('request', starting)
    server.on('request', api)
    logger.info(`storage: ${description}${options.databaseSource ? ` (from ${options.databaseSource})` : ''}`)
    const disk = diskSpace?.status()
    if (disk?.short && !disk.low) logger.warn(`low disk space: ${megabytes(disk.freeBytes)} free for the database in ${disk.path}; writes are refused under ${megabytes(disk.minFreeBytes)}`, { free_bytes: disk.freeBytes, min_free_bytes: disk.minFreeBytes })
    logMigrations(logger, migrations)
    if (replaced) logSettingsChanges(logger, replaced)
    await ensureApiKey(program, options.apiKey, logger, options.log)
    // Embedded PGlite admits no second process: keys and portal commands come through this server instead.
    if (dataDir) {
      closeKeySocket = await serveKeySocket(dataDir, {
        keys: program.keys,
        portalLink: (email) => portalSignInLink(portal, program.projectId, email),
        payoutRun: payouts ? (input) => payouts!.runs.run(program.projectId, { ...input, trigger: 'cli' }) : null,
        providerEvents: (filter) => program.providerEvents.list(filter),
        about: () => ({ pid: process.pid, url: apiUrl(server.address() as AddressInfo, options.host) }),
        // `affiliate-kit import` while this server holds the directory: run here, its lines sent back.
        importRun: async (spec, line) => {
          logger.info(`import from ${spec.tool}${spec.csvDir === null ? '' : ' CSV'}${spec.dryRun ? ' (dry run)' : ''} asked through the local socket`)
          return (await import('./commands/import.js')).runImport(program, spec, line, { isTTY: false } as NodeJS.WriteStream)
        },
      })
    }
    if (dataDir && !closeKeySocket) logger.warn(`keys commands cannot reach this server (no socket in ${dataDir}); stop it to run them`)
  } catch (error) {
    server.close()
    await payouts?.stop()
    await program.close()
    throw error
  }
  const url = apiUrl(server.address() as AddressInfo, options.host)
  // The outbox's first poll waits a moment: on embedded PGlite it would hold the one connection
  // (a cold claim takes tens of ms) just when the first requests of a start arrive.
  const firstPoll = setTimeout(() => {
    dispatcher.start()
    mail?.dispatcher.start()
    if (mailMount) stopSummaries = mailMount.monthlySummaries(program, logger)
    // Payouts a stopped server left processing are resumed at start, then on the schedule.
    void payouts?.run()
  }, FIRST_POLL_DELAY_MS)
  if (mail) logger.info(`sending mail through ${mail.server}`)
  const clickRetention = config.clicks?.retentionMonths
  const pruning = startPruning(storage, { clock: program.clock, logger, ...config.retention, ...(clickRetention === undefined ? {} : { clickRetentionMonths: clickRetention }) })
  if (config.portal?.enabled) logger.info(`affiliate portal at ${url.replace(/\/api\/v1$/, '')}${config.portal.path ?? '/portal'}`)
  if (config.portal?.enabled && !config.portal.publicUrl) logger.warn('portal.publicUrl is not set: sign-in links (portal link, the console, the API) are refused until it is')
  if (config.admin?.enabled) logger.info(`admin console at ${url.replace(/\/api\/v1$/, '')}${config.admin.path ?? '/admin'}`)
  for (const name of providers.keys()) logger.info(`receiving ${name} events at ${url}/providers/${name}/events`, { provider: name })
  const pairs = Object.entries(config.exchangeRates ?? {}).map(([pair, rate]) => `${pair} ${rate}`)
  if (pairs.length > 0) logger.info(`exchange rates from the config: ${pairs.join(', ')}`, { pairs: pairs.length })
  // Last, so that whoever waits for this line has every line of the start.
  logger.info(`listening on ${url}`, { url, metrics: metrics !== undefined })

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await Promise.all([drain.close(), closeKeySocket?.()])
      await closeTracking?.().catch((error: unknown) => logger.error('clicks still waiting could not be written', { error: errorText(error) }))
      clearTimeout(firstPoll)
      stopSummaries?.()
      await Promise.all([dispatcher.stop(), mail?.dispatcher.stop(), pruning.stop(), payouts?.stop()])
      await program.close()
    })())
  return { url, close }
}

/** The API's URL on the bound address. */
function apiUrl({ port }: AddressInfo, hostOption: string): string {
  const host = hostOption.includes(':') ? `[${hostOption}]` : hostOption
  return `http://${host}:${port}/api/v1`
}
