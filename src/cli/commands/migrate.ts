// `affiliate-kit migrate`: creates or upgrades the tables, then exits (the server also does it).
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import type { Command } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError } from '../errors.js'

export const migrateCommand: Command = {
  name: 'migrate',
  usage: 'affiliate-kit migrate [--database <db>]',
  help: `Applies the database migrations and exits; serve also applies them when it starts.\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  async run(values, _positionals, log) {
    await withProgram(values, async () => {}).catch((error: unknown) => {
      if (!(error instanceof DataDirLockedError)) throw error
      throw new CliError(`${error.dataDir} is in use by process ${error.pid} (a running server migrates its database when it starts); stop it first to run migrate`)
    })
    log('database is migrated and ready')
    return 0
  },
}
