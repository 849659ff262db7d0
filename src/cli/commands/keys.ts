// `affiliate-kit keys create|list|revoke`: API keys in the database the server uses. On embedded
// PGlite the server holds the data directory, so these refuse while it runs and say what to do;
// on PostgreSQL they work while it runs (the server reads the key record on every request).
import { NotFoundError } from '../../core/errors.js'
import { SCOPES, type Scope } from '../../core/types.js'
import type { Command } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError } from '../errors.js'

export const keysCreateCommand: Command = {
  name: 'keys create',
  usage: 'affiliate-kit keys create [--name <name>] [--scopes a,b] [--database <db>]',
  help: `Creates an API key and prints it once.

  --name <name>      a label shown by "keys list"
  --scopes <a,b>     * (default) or any of: ${SCOPES.join(', ')}
${DATABASE_HELP}`,
  options: { name: { type: 'string' }, scopes: { type: 'string' }, database: { type: 'string' } },
  async run(values, _positionals, log) {
    const scopes = typeof values.scopes === 'string' ? (values.scopes.split(',').map((scope) => scope.trim()) as Scope[]) : undefined
    const unknown = scopes?.find((scope) => scope !== '*' && !(SCOPES as readonly string[]).includes(scope))
    if (unknown !== undefined) throw new CliError(`--scopes: unknown scope "${unknown}"; known: *, ${SCOPES.join(', ')}`)
    const name = values.name as string | undefined
    const { key, record } = await withProgram(values, (program) => program.keys.create({ ...(name ? { name } : {}), ...(scopes ? { scopes } : {}) }))
    log(`${key}\n(id ${record.id}, scopes ${record.scopes.join(',')}; shown once)`)
    return 0
  },
}

export const keysListCommand: Command = {
  name: 'keys list',
  usage: 'affiliate-kit keys list [--database <db>]',
  help: `Lists API keys: id, prefix, scopes, name, active or revoked.\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  async run(values, _positionals, log) {
    for (const key of await withProgram(values, (program) => program.keys.list())) {
      log(`${key.id}\t${key.prefix}…\t${key.scopes.join(',')}\t${key.name ?? ''}\t${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}`)
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
    const id = Number(text)
    if (!/^\d+$/.test(text!) || !Number.isSafeInteger(id) || id < 1) throw new CliError(`keys revoke needs the numeric key id (see "keys list"); got "${text}"`)
    await withProgram(values, (program) => program.keys.revoke(id)).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new CliError(`no API key has id ${id}; "affiliate-kit keys list" shows the ids`) : error
    })
    log(`revoked key ${id}`)
    return 0
  },
}
