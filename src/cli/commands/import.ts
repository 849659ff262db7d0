// `affiliate-kit import <tool>`, one command per tool of the importers' registry
// (src/importers/registry.ts): reads a program from the tool's REST
// API (or, with --csv, from its CSV exports) and writes it into the database through the program
// (src/importers), printing progress lines, a summary and a table per affiliate, and writing the
// JSON report (to --report, else to the system's temporary folder, never into the working
// directory). --dry-run writes nothing but the report, in the same format. On embedded PGlite held
// by a running server, the server runs it (key-socket.ts) and the lines come back from it.
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { IMPORTER_NAMES, IMPORTERS, type ImporterName } from '../../importers/registry.js'
import { importProgram } from '../../importers/run.js'
import { ImportSourceError, type ImportSource } from '../../importers/source.js'
import type { Command } from '../command.js'
import { loadConfig, projectSettingsOf } from '../config.js'
import { DATABASE_HELP, databaseTarget, openProgram } from '../database.js'
import { CliError } from '../errors.js'
import type { ImportOutcomeLines, ImportSpec } from '../import-spec.js'
import { importClient } from '../key-socket.js'
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import type { AffiliateProgram } from '../../core/program.js'

function importCommand(name: ImporterName): Command {
  const tool = IMPORTERS[name]
  const files = Object.values(tool.csv.files).map((names) => names[0]).join(', ')
  return {
    name: `import ${name}`,
    usage: `affiliate-kit import ${name} (--api-key <key> [--api-url <base>]${tool.programId ? ' [--program-id <id>]' : ''} | --csv <dir>) [--dry-run] [--update] [--report <file>] [--database <db>] [--config <file>]`,
    help: `Imports affiliates, link tokens, coupons, referred customers and commissions from ${tool.label}
(docs/migrating.md). Running it again creates only what is missing. While a server runs on the
same embedded PGlite directory, the import runs in that server (with its settings).

  --api-key <key>    ${tool.keyHelp}   env ${tool.env}_API_KEY
  --api-url <base>   the API base, version included      env ${tool.env}_API_URL, default ${tool.defaultApiUrl}
${tool.programId ? `  --program-id <id>  ${tool.programId.help}   env ${tool.env}_PROGRAM_ID\n` : ''}  --csv <dir>        read ${tool.label}'s CSV exports from <dir> instead of the API (${files})
  --dry-run          read and compare, write nothing; print what would be created
  --update           overwrite an existing affiliate's name, status and PayPal email (else reported)
  --report <file>    the JSON report      default <temp folder>/affiliate-kit-import-${name}-<time>[-dry-run].json
${DATABASE_HELP}
  --config <file>    the server's JSON settings (currency, hold period, sub-programs) to apply first`,
    options: {
      'api-key': { type: 'string' },
      'api-url': { type: 'string' },
      ...(tool.programId ? { 'program-id': { type: 'string' } as const } : {}),
      csv: { type: 'string' },
      'dry-run': { type: 'boolean' },
      update: { type: 'boolean' },
      report: { type: 'string' },
      database: { type: 'string' },
      config: { type: 'string' },
    },
    async run(values, _positionals, log) {
      const csvDir = values.csv as string | undefined
      let api: ImportSpec['api'] = null
      if (csvDir === undefined) {
        const apiKey = (values['api-key'] as string | undefined) ?? process.env[`${tool.env}_API_KEY`]
        if (!apiKey) throw new CliError(`import ${name} needs --api-key (or ${tool.env}_API_KEY): ${tool.keyHelp}; or --csv <dir> for its CSV exports`)
        const apiUrl = (values['api-url'] as string | undefined) ?? process.env[`${tool.env}_API_URL`] ?? tool.defaultApiUrl
        if (!/^https?:\/\//.test(apiUrl)) throw new CliError(`--api-url must be an http(s) URL such as ${tool.defaultApiUrl}; got "${apiUrl}"`)
        const programId = tool.programId ? ((values['program-id'] as string | undefined) ?? process.env[`${tool.env}_PROGRAM_ID`]) : undefined
        api = { apiKey, apiUrl, ...(programId ? { programId } : {}) }
        sourceOf({ tool: name, csvDir: null, api, dryRun: false, update: false }, '', log) // checks the tool's own options before the database opens
      } else if (values['api-key'] !== undefined) {
        throw new CliError('--csv and --api-key exclude each other: read the exports or the API')
      }
      const spec: ImportSpec = { tool: name, csvDir: csvDir === undefined ? null : resolve(csvDir), api, dryRun: values['dry-run'] === true, update: values.update === true }
      const settings = values.config ? projectSettingsOf(loadConfig(values.config as string)) : undefined
      let outcome: ImportOutcomeLines
      try {
        const { program } = await openProgram(databaseTarget(values.database as string | undefined).target, settings ? { settings } : {})
        try {
          outcome = await runImport(program, spec, log)
        } finally {
          await program.close()
        }
      } catch (error) {
        // Embedded PGlite held by a running server: the import runs in it, through its socket (key-socket.ts).
        if (!(error instanceof DataDirLockedError)) throw error
        const server = await importClient(error.dataDir)
        if (!server) throw error
        log(`importing through the server running on ${error.dataDir} (process ${error.pid}), with its settings${settings ? ' (--config is not applied)' : ''}`)
        outcome = await server(spec, log)
      }
      for (const line of outcome.summary) log(line)
      const file = (values.report as string | undefined) ?? join(tmpdir(), `affiliate-kit-import-${name}-${new Date().toISOString().replace(/[:.]/g, '-')}${spec.dryRun ? '-dry-run' : ''}.json`)
      writeFileSync(file, `${JSON.stringify(outcome.report, null, 2)}\n`)
      log(`report written to ${file}`)
      if (outcome.errors > 0) {
        log(`${outcome.errors} records were refused: fix them in ${tool.label} (or here) and run the import again`)
        return 1
      }
      return 0
    },
  }
}

function sourceOf(spec: ImportSpec, currency: string, onRetry: (line: string) => void, csvSource?: typeof import('../../importers/csv/source.js').csvSource): ImportSource {
  const tool = IMPORTERS[spec.tool]
  if (spec.api) {
    const { apiKey, apiUrl, programId } = spec.api
    if (tool.programId && !programId) throw new CliError(`import ${spec.tool} needs --program-id (or ${tool.env}_PROGRAM_ID): ${tool.programId.why}`)
    return tool.apiSource({ apiKey, apiUrl, ...(programId ? { programId } : {}), onRetry })
  }
  return csvSource!(spec.tool, { dir: spec.csvDir!, currency })
}

/** Imports into the program (the command's own, or a running server's for a request on its socket), printing progress lines. */
export async function runImport(program: AffiliateProgram, spec: ImportSpec, log: (line: string) => void, stream?: NodeJS.WriteStream): Promise<ImportOutcomeLines> {
  const tool = IMPORTERS[spec.tool]
  const currency = (await program.settings()).currency
  // The progress bar and the CSV reader load only for this command, not for every start of the CLI.
  const [{ importProgress }, { csvSource }] = await Promise.all([import('../import-progress.js'), import('../../importers/csv/source.js')])
  const progress = importProgress(`${tool.label}${spec.csvDir === null ? '' : ' CSV'}`, log, stream)
  const report = await (async () => {
    const source = sourceOf(spec, currency, log, csvSource)
    return importProgram(program, source, { dryRun: spec.dryRun, update: spec.update, onRecord: progress.record, onProgress: progress.done })
  })().catch((error: unknown) => {
    throw error instanceof ImportSourceError ? new CliError(error.message) : error
  })
  return { summary: report.summaryLines(), report: report.toJSON(), errors: report.errors }
}

/** `affiliate-kit import <tool>` for every tool of the registry, in its order. */
export const importCommands: Command[] = IMPORTER_NAMES.map(importCommand)
