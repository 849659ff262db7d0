// `affiliate-kit serve`: reads its flags and environment (PORT, HOST, DATABASE_URL,
// AFFILIATE_KIT_API_KEY), runs the server until SIGTERM or SIGINT, then drains it.
import type { Command } from '../command.js'
import { DATABASE_HELP, databaseTarget } from '../database.js'
import { CliError } from '../errors.js'
import { sqlLogRequested } from '../logging.js'
import { serve } from '../serve.js'
import { commandLine } from '../locked.js'
import { serverAbout } from '../key-socket.js'
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'

/** A flag, else a non-empty environment variable, else the default; with the name it came by. */
function setting(flag: string, value: string | undefined, variable: string, fallback: string): { value: string; name: string } {
  if (value !== undefined) return { value, name: flag }
  const fromEnv = process.env[variable]
  return fromEnv ? { value: fromEnv, name: variable } : { value: fallback, name: flag }
}

function portOf({ value, name }: { value: string; name: string }): number {
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65_535) throw new CliError(`${name} must be 0 to 65535; got "${value}"`)
  return port
}

export const serveCommand: Command = {
  name: 'serve',
  usage: 'affiliate-kit serve [--port 8787] [--host 127.0.0.1] [--database memory|postgres://...|pglite:<dir>] [--config <file>] [--log-level info] [--log-format text]',
  help: `Starts the /api/v1 server and the webhook dispatcher; SIGTERM or SIGINT drains and stops it.

  --port <n>         port to listen on (0: any free port)      env PORT, default 8787
  --host <address>   address to listen on (0.0.0.0: all)       env HOST, default 127.0.0.1
${DATABASE_HELP}
  --config <file>    JSON settings: currency, commissions, webhooks, rateLimit, shape, providers, exchangeRates
  --log-level <l>    debug, info, warn or error                env LOG_LEVEL, default info
  --log-format <f>   text or json (one JSON object per line)   env LOG_FORMAT, default text

AFFILIATE_KIT_API_KEY=rgk_... makes sure that key exists (scope *); without it the first start
creates a key and prints it once. AFFILIATE_KIT_LOG_SQL=1 with --log-level debug logs each SQL
statement the server runs (its text and parameter count, never the values).`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    database: { type: 'string' },
    config: { type: 'string' },
    'log-level': { type: 'string' },
    'log-format': { type: 'string' },
  },
  async run(values, _positionals, log) {
    // Listening for the signals from the start: a stop asked for during start-up waits for it.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGTERM', () => resolve())
      process.once('SIGINT', () => resolve())
    })
    const { target, source } = databaseTarget(values.database as string | undefined)
    const server = await serve({
      port: portOf(setting('--port', values.port as string | undefined, 'PORT', '8787')),
      host: setting('--host', values.host as string | undefined, 'HOST', '127.0.0.1').value,
      ...(target ? { database: target } : {}),
      ...(source === 'DATABASE_URL' ? { databaseSource: source } : {}),
      ...(values.config ? { config: values.config as string } : {}),
      ...(process.env.AFFILIATE_KIT_API_KEY ? { apiKey: process.env.AFFILIATE_KIT_API_KEY } : {}),
      ...(values['log-level'] ? { logLevel: values['log-level'] as string } : {}),
      ...(values['log-format'] ? { logFormat: values['log-format'] as string } : {}),
      ...(sqlLogRequested() ? { logSql: true } : {}),
      log,
    }).catch(async (error: unknown) => {
      if (error instanceof DataDirLockedError) throw new CliError(await alreadyServing(error))
      throw error
    })
    await stopped
    log('shutting down: draining requests and webhook deliveries')
    await server.close()
    return 0
  },
}

/** A second server on a PGlite directory: where the first one answers, and the exact commands to run instead. */
async function alreadyServing(error: DataDirLockedError): Promise<string> {
  const about = await serverAbout(error.dataDir)
  const where = about ? ` and answers at ${about.url}` : ''
  return (
    `a server (process ${error.pid}) already runs on ${error.dataDir}${where}: embedded PGlite admits one process. ` +
    `Use that one, or stop it (Ctrl-C where it runs, or kill ${error.pid}) and run \`${commandLine()}\` again; ` +
    `to run both, give this one its own directory: \`${commandLine([...withoutDatabase(process.argv.slice(2)), '--database', `pglite:${error.dataDir}-2`])}\``
  )
}

/** The arguments without a --database option (and its value). */
function withoutDatabase(argv: string[]): string[] {
  return argv.filter((arg, index) => arg !== '--database' && argv[index - 1] !== '--database' && !arg.startsWith('--database='))
}
