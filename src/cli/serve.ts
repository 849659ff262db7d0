// `affiliate-kit serve`: the standalone server. Validates config, opens storage, syncs webhook
// endpoints from the config, listens (so a port in use stops the start before any key is made),
// ensures an API key, takes keys commands on embedded PGlite, runs the webhook dispatcher, and
// drains in-flight requests and deliveries on close.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AffiliateProgram } from '../index.js'
import { createHandler } from '../http/handler.js'
import { toNodeHandler } from '../http/node.js'
import { loadConfig, projectSettingsOf, type ServerConfig } from './config.js'
import { openProgram } from './database.js'
import { serveKeySocket } from './key-socket.js'

export interface ServeOptions {
  port: number
  host: string
  database?: string
  /** Where `database` came from, when the log should say so (e.g. DATABASE_URL). */
  databaseSource?: string
  config?: string
  apiKey?: string
  log: (line: string) => void
}

async function ensureApiKey(program: AffiliateProgram, apiKey: string | undefined, log: (line: string) => void) {
  if (apiKey) {
    await program.keys.ensure(apiKey)
    log('API key from AFFILIATE_KIT_API_KEY is active')
    return
  }
  const keys = (await program.keys.list()).filter((key) => key.revokedAt === null)
  if (keys.length > 0) {
    log(`API keys: ${keys.length} active (prefixes ${keys.map((key) => key.prefix).join(', ')}); create another with "affiliate-kit keys create"`)
    return
  }
  const { key } = await program.keys.create({ name: 'first start' })
  log(`created an API key (shown once, keep it): ${key}`)
}

/** Creates or updates the config's endpoints, matched by URL; endpoints made elsewhere stay. */
async function syncWebhooks(program: AffiliateProgram, config: ServerConfig) {
  const existing = await program.webhooks.list()
  for (const wanted of config.webhooks ?? []) {
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
  const { program, description, dataDir } = await openProgram(options.database, projectSettingsOf(config))
  const server = createServer()
  let closeKeySocket: (() => Promise<void>) | null = null
  try {
    await syncWebhooks(program, config)
    const handler = createHandler(program, {
      ...(config.shape ? { shape: config.shape } : {}),
      ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
      onError: (error: unknown) => options.log(`unexpected error: ${(error as Error)?.stack ?? String(error)}`),
    })
    server.on('request', toNodeHandler(handler))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port, options.host, () => resolve())
    })
    await ensureApiKey(program, options.apiKey, options.log)
    // Embedded PGlite admits no second process: keys commands come through this server instead.
    if (dataDir) closeKeySocket = await serveKeySocket(dataDir, program.keys)
    if (dataDir && !closeKeySocket) options.log(`keys commands cannot reach this server (no socket in ${dataDir}); stop it to run them`)
  } catch (error) {
    server.close()
    await program.close()
    throw error
  }
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  const url = `http://${host}:${port}/api/v1`
  program.webhooks.start()
  options.log(`storage: ${description}${options.databaseSource ? ` (from ${options.databaseSource})` : ''}`)
  options.log(`listening on ${url}`)

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      await Promise.all([drained, closeKeySocket?.()])
      await program.close()
    })())
  return { url, close }
}
