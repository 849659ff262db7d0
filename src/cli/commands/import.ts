// `affiliate-kit import rewardful`: reads a program from Rewardful's REST API and writes it into the
// database through the program (src/importers), printing progress lines, a summary and a table per
// affiliate, and writing the JSON report. --dry-run writes nothing but the report (when asked for).
import { writeFileSync } from 'node:fs'
import { importProgram } from '../../importers/run.js'
import { REWARDFUL_API_URL } from '../../importers/rewardful/client.js'
import { rewardfulSource } from '../../importers/rewardful/source.js'
import { ImportSourceError } from '../../importers/source.js'
import type { Command } from '../command.js'
import { loadConfig, projectSettingsOf } from '../config.js'
import { DATABASE_HELP, databaseTarget, openProgram } from '../database.js'
import { CliError } from '../errors.js'

export const importRewardfulCommand: Command = {
  name: 'import rewardful',
  usage: 'affiliate-kit import rewardful --api-key <secret> [--api-url <base>] [--dry-run] [--update] [--report <file>] [--database <db>] [--config <file>]',
  help: `Imports affiliates, link tokens, coupons, referred customers and commissions from Rewardful
(docs/migrating.md). Running it again creates only what is missing.

  --api-key <secret> the API Secret (Rewardful: Company Settings)   env REWARDFUL_API_KEY
  --api-url <base>   the API base, version included      env REWARDFUL_API_URL, default ${REWARDFUL_API_URL}
  --dry-run          read and compare, write nothing; print what would be created
  --update           overwrite an existing affiliate's name, status and PayPal email (else reported)
  --report <file>    the JSON report      default affiliate-kit-import-rewardful-<time>.json (not in a dry run)
${DATABASE_HELP}
  --config <file>    the server's JSON settings (currency, hold period, sub-programs) to apply first`,
  options: {
    'api-key': { type: 'string' },
    'api-url': { type: 'string' },
    'dry-run': { type: 'boolean' },
    update: { type: 'boolean' },
    report: { type: 'string' },
    database: { type: 'string' },
    config: { type: 'string' },
  },
  async run(values, _positionals, log) {
    const apiKey = (values['api-key'] as string | undefined) ?? process.env.REWARDFUL_API_KEY
    if (!apiKey) throw new CliError('import rewardful needs --api-key (or REWARDFUL_API_KEY): the API Secret from Rewardful\'s Company Settings page')
    const apiUrl = (values['api-url'] as string | undefined) ?? process.env.REWARDFUL_API_URL ?? REWARDFUL_API_URL
    if (!/^https?:\/\//.test(apiUrl)) throw new CliError(`--api-url must be an http(s) URL such as ${REWARDFUL_API_URL}; got "${apiUrl}"`)
    const dryRun = values['dry-run'] === true
    const settings = values.config ? projectSettingsOf(loadConfig(values.config as string)) : undefined
    const { program } = await openProgram(databaseTarget(values.database as string | undefined).target, settings ? { settings } : {})
    try {
      const source = rewardfulSource({ apiKey, apiUrl, onRetry: log })
      const report = await importProgram(program, source, {
        dryRun,
        update: values.update === true,
        onProgress: (entity, read) => log(`${entity}: ${read} read from Rewardful`),
      }).catch((error: unknown) => {
        throw error instanceof ImportSourceError ? new CliError(error.message) : error
      })
      for (const line of report.summaryLines()) log(line)
      const file = (values.report as string | undefined) ?? (dryRun ? undefined : `affiliate-kit-import-rewardful-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
      if (file) {
        writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
        log(`report written to ${file}`)
      }
      if (report.errors > 0) {
        log(`${report.errors} records were refused: fix them in Rewardful (or here) and run the import again`)
        return 1
      }
      return 0
    } finally {
      await program.close()
    }
  },
}
