#!/usr/bin/env node
// The `affiliate-kit` command: finds the command named by argv (one file per command group in
// commands/), reads its options, runs it, and turns any failure into one line on stderr.
import { readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { commandHelp, parseCommand, type Command } from './command.js'
import { importCommands } from './commands/import.js'
import { keysCreateCommand, keysListCommand, keysRevokeCommand } from './commands/keys.js'
import { mcpCommand } from './commands/mcp.js'
import { migrateCommand } from './commands/migrate.js'
import { payoutsRunCommand } from './commands/payouts.js'
import { portalLinkCommand } from './commands/portal.js'
import { providersEventsCommand, providersReplayCommand } from './commands/providers.js'
import { serveCommand } from './commands/serve.js'
import { taxIdsReencryptCommand } from './commands/tax-ids.js'
import { webhooksDeliveriesCommand, webhooksRetryCommand } from './commands/webhooks.js'
import { describeError, redact, urlPasswords, usageError } from './errors.js'

const COMMANDS: Command[] = [
  serveCommand,
  mcpCommand,
  keysCreateCommand,
  keysListCommand,
  keysRevokeCommand,
  migrateCommand,
  webhooksDeliveriesCommand,
  webhooksRetryCommand,
  providersEventsCommand,
  providersReplayCommand,
  portalLinkCommand,
  payoutsRunCommand,
  taxIdsReencryptCommand,
  ...importCommands,
]

const usage = () => `usage:
${COMMANDS.map((command) => `  ${command.usage}`).join('\n')}
  affiliate-kit <command> --help | --version

The database defaults to embedded PGlite in ./affiliate-data (DATABASE_URL sets another;
AFFILIATE_KIT_POOLER=transaction when it leads to a pooler in transaction mode, like PgBouncer's).
AFFILIATE_KIT_API_KEY=rgk_... makes sure that key exists (scope *) when serving.`

/** The package version, from the package.json two levels above this file (src/cli or dist/cli). */
function version(): string {
  try {
    const packageJson = join(dirname(realpathSync(process.argv[1]!)), '..', '..', 'package.json')
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
  } catch {
    return 'unknown'
  }
}

const log = (line: string) => console.log(line)

async function main(argv: string[]): Promise<number> {
  const [first, second] = argv
  if (first === '--version' || first === '-V') {
    log(version())
    return 0
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    ;(first === undefined ? console.error : log)(usage())
    return first === undefined ? 2 : 0
  }
  const command = COMMANDS.find((candidate) => candidate.name === first || candidate.name === `${first} ${second}`)
  if (!command) {
    const group = COMMANDS.filter((candidate) => candidate.name.startsWith(`${first} `))
    if (group.length === 0) throw usageError(`unknown command "${first}"; run "affiliate-kit --help"`)
    if (second === undefined || second === '--help' || second === '-h') {
      log(`usage:\n${group.map((candidate) => `  ${candidate.usage}`).join('\n')}`)
      return second === undefined ? 2 : 0
    }
    throw usageError(`unknown command "${first} ${second}"; run "affiliate-kit ${first} --help"`)
  }
  const { values, positionals } = parseCommand(command, argv.slice(command.name.split(' ').length))
  if (values.help) {
    log(commandHelp(command))
    return 0
  }
  return command.run(values, positionals, log)
}

// `affiliate-kit webhooks deliveries 1 | head`: the reader may go before the output ends. Stop
// quietly then, as other command-line tools do, instead of dying on the write error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const line = describeError(error, Boolean(process.env.AFFILIATE_KIT_DEBUG))
    console.error(`affiliate-kit: ${redact(line, urlPasswords([process.env.DATABASE_URL, ...process.argv]))}`)
    process.exit((error as { exitCode?: number }).exitCode ?? 1)
  },
)
