// `affiliate-kit migrate`: creates or upgrades the tables, then exits (the server also does it).
import type { Command } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'

export const migrateCommand: Command = {
  name: 'migrate',
  usage: 'affiliate-kit migrate [--database <db>]',
  help: `Applies the database migrations and exits; serve also applies them when it starts.\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  async run(values, _positionals, log) {
    await withProgram(values, async () => {})
    log('database is migrated and ready')
    return 0
  },
}
