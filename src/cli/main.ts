#!/usr/bin/env node
// The `affiliate-kit` command: serve | keys create|list|revoke | migrate.
import { parseArgs } from 'node:util'
import { createAffiliateProgram } from '../index.js'
import { SCOPES, type Scope } from '../core/types.js'
import { ConfigError, loadConfig, projectSettingsOf } from './config.js'
import { openStorage } from './database.js'
import { serve } from './serve.js'
import { WEBHOOKS_USAGE, webhooksCommand } from './webhooks-command.js'
import { providersCommand, PROVIDERS_USAGE } from './providers-command.js'

const USAGE = `usage:
  affiliate-kit serve [--port 8787] [--host 127.0.0.1] [--database <memory|postgres://...|pglite:dir>] [--config <file>]
                     [--log-level debug|info|warn|error] [--log-format text|json]
  affiliate-kit keys create [--name <name>] [--scopes a,b] [--database ...]
  affiliate-kit keys list [--database ...]
  affiliate-kit keys revoke <id> [--database ...]
  affiliate-kit migrate [--database ...]
${WEBHOOKS_USAGE}
${PROVIDERS_USAGE}

The database defaults to embedded PGlite in ./affiliate-data.
AFFILIATE_KIT_API_KEY=rgk_... makes sure that key exists (scope *) when serving.`

const log = (line: string) => console.log(line)

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'providers') return providersCommand(argv.slice(1), log)
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      database: { type: 'string' },
      config: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      status: { type: 'string' },
      'log-level': { type: 'string' },
      'log-format': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [command, sub, arg] = positionals
  if (values.help || !command) {
    log(USAGE)
    return values.help ? 0 : 2
  }
  if (command === 'serve') {
    const port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`--port must be 0 to 65535; got "${values.port}"`)
    const server = await serve({
      port,
      host: values.host!,
      ...(values.database ? { database: values.database } : {}),
      ...(values.config ? { config: values.config } : {}),
      ...(process.env.AFFILIATE_KIT_API_KEY ? { apiKey: process.env.AFFILIATE_KIT_API_KEY } : {}),
      ...(values['log-level'] ? { logLevel: values['log-level'] } : {}),
      ...(values['log-format'] ? { logFormat: values['log-format'] } : {}),
      log,
    })
    await new Promise<void>((resolve) => {
      const stop = () => resolve()
      process.once('SIGTERM', stop)
      process.once('SIGINT', stop)
    })
    log('shutting down: draining requests and webhook deliveries')
    await server.close()
    return 0
  }

  const { storage } = await openStorage(values.database)
  // Settings given replace the stored ones, so only an explicit --config may change them here.
  const program = await createAffiliateProgram({ storage, ...(values.config ? { settings: projectSettingsOf(loadConfig(values.config)) } : {}) })
  try {
    if (command === 'migrate') {
      log('database is migrated and ready')
      return 0
    }
    if (command === 'webhooks') return await webhooksCommand(program, sub, arg, { status: values.status, log })
    if (command === 'keys' && sub === 'create') {
      const scopes = values.scopes ? (values.scopes.split(',').map((scope) => scope.trim()) as Scope[]) : undefined
      const unknown = scopes?.find((scope) => scope !== '*' && !(SCOPES as readonly string[]).includes(scope))
      if (unknown) throw new ConfigError(`--scopes: unknown scope "${unknown}"; known: *, ${SCOPES.join(', ')}`)
      const { key, record } = await program.keys.create({ ...(values.name ? { name: values.name } : {}), ...(scopes ? { scopes } : {}) })
      log(`${key}\n(id ${record.id}, scopes ${record.scopes.join(',')}; shown once)`)
      return 0
    }
    if (command === 'keys' && sub === 'list') {
      for (const key of await program.keys.list()) {
        log(`${key.id}\t${key.prefix}…\t${key.scopes.join(',')}\t${key.name ?? ''}\t${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}`)
      }
      return 0
    }
    if (command === 'keys' && sub === 'revoke') {
      const id = Number(arg)
      if (!Number.isSafeInteger(id) || id < 1) throw new ConfigError('keys revoke needs the numeric key id (see "keys list")')
      await program.keys.revoke(id)
      log(`revoked key ${id}`)
      return 0
    }
    log(USAGE)
    return 2
  } finally {
    await program.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof ConfigError || (error as { code?: string })?.code === 'invalid_request' || (error as { code?: string })?.code === 'not_found'
    console.error(known ? `affiliate-kit: ${(error as Error).message}` : error)
    process.exit(1)
  },
)
