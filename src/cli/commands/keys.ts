// `affiliate-kit keys create|list|revoke`: API keys in the database the server uses. On embedded
// PGlite a running server holds the data directory, so they go through the server (key-socket.ts);
// on PostgreSQL they open the database beside it (the server reads the key record on every request).
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import { SCOPES, type Scope } from '../../core/model/types.js'
import { positiveInteger, type Command, type OptionValues } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError, usageError } from '../errors.js'
import { keySocketClient, type KeyOperations } from '../key-socket.js'

/** Runs fn on the keys of the database, or through the server that holds its PGlite directory. */
async function withKeys<T>(values: OptionValues, fn: (keys: KeyOperations) => Promise<T>): Promise<T> {
  try {
    return await withProgram(values, (program) => fn(program.keys))
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    const server = await keySocketClient(error.dataDir)
    if (server) return fn(server.keys)
    throw new CliError(`${error.dataDir} is in use by process ${error.pid}, which does not take keys commands: stop it, run this command, then start it again`)
  }
}

export const keysCreateCommand: Command = {
  name: 'keys create',
  usage: 'affiliate-kit keys create [--name <name>] [--scopes a,b | --publishable] [--database <db>]',
  help: `Creates an API key and prints it once.

  --name <name>      a label shown by "keys list"
  --scopes <a,b>     * (default) or any of: ${SCOPES.join(', ')}
  --publishable      an rgp_ key for the browser snippet (docs/tracking.md): safe in a web page, it
                     only reports clicks and signups to the tracking links, and has no API scope
${DATABASE_HELP}`,
  options: { name: { type: 'string' }, scopes: { type: 'string' }, publishable: { type: 'boolean' }, database: { type: 'string' } },
  async run(values, _positionals, log) {
    if (values.publishable) return createPublishable(values, log)
    const scopes = typeof values.scopes === 'string' ? (values.scopes.split(',').map((scope) => scope.trim()) as Scope[]) : undefined
    const unknown = scopes?.find((scope) => scope !== '*' && !(SCOPES as readonly string[]).includes(scope))
    if (unknown !== undefined) throw new CliError(`--scopes: unknown scope "${unknown}"; known: *, ${SCOPES.join(', ')}`)
    const name = values.name as string | undefined
    const { key, record } = await withKeys(values, (keys) => keys.create({ ...(name ? { name } : {}), ...(scopes ? { scopes } : {}) }))
    log(`${key}\n(id ${record.id}, scopes ${record.scopes.join(',')}; shown once)`)
    return 0
  },
}

async function createPublishable(values: OptionValues, log: (line: string) => void): Promise<number> {
  if (values.scopes !== undefined) throw usageError('--publishable keys have no scopes: leave out --scopes')
  const name = values.name as string | undefined
  const { key, record } = await withKeys(values, (keys) => keys.createPublishable(name ? { name } : {}))
  log(`${key}\n(id ${record.id}, publishable: put it in the snippet's data-key; shown once)`)
  return 0
}

export const keysListCommand: Command = {
  name: 'keys list',
  usage: 'affiliate-kit keys list [--database <db>]',
  help: `Lists API keys: id, prefix, scopes (publishable for rgp_ keys), name, active or revoked.\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  async run(values, _positionals, log) {
    for (const key of await withKeys(values, (keys) => keys.list())) {
      const scopes = key.prefix.startsWith('rgp_') ? 'publishable' : key.scopes.join(',')
      log(`${key.id}\t${key.prefix}…\t${scopes}\t${key.name ?? ''}\t${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}`)
    }
    return 0
  },
}

export const keysRevokeCommand: Command = {
  name: 'keys revoke',
  usage: 'affiliate-kit keys revoke <id> [--database <db>]',
  help: `Revokes a key by its id (see "keys list"); requests with it are refused from then on.\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  positionals: ['id'],
  async run(values, [text], log) {
    const id = positiveInteger(text!)
    if (id === null) throw new CliError(`keys revoke needs the numeric key id (see "keys list"); got "${text}"`)
    await withKeys(values, (keys) => keys.revoke(id)).catch((error: unknown) => {
      const notFound = (error as { code?: string }).code === 'not_found'
      throw notFound ? new CliError(`no API key has id ${id}; "affiliate-kit keys list" shows the ids`) : error
    })
    log(`revoked key ${id}`)
    return 0
  },
}
