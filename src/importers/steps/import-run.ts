// One run of importProgram: what its steps share (the program, the source, the options, the report,
// the project's settings, the affiliates met so far and the paid commissions, by the tool's ids)
// and the rules every record follows: one attempt each, references and markers from the tool's id.
import { AffiliateError, ConflictError } from '../../core/model/errors.js'
import { IMPORTED_REFERENCE_PREFIX } from '../../core/model/mail-kinds.js'
import type { AffiliateProgram, ProjectScope } from '../../core/program.js'
import type { ProjectSettings } from '../../core/model/types.js'
import type { ConversionView } from '../../core/rules/views.js'
import { ImportReport, type ImportEntity } from '../report.js'
import type { ImportSource } from '../source.js'

export interface ImportOptions {
  /** Reads and compares, writes nothing; the report says what would be created. @default false */
  dryRun?: boolean
  /** Overwrites an existing affiliate's name, status and PayPal email with the tool's. @default false (reported as differing) */
  update?: boolean
  /** Called after each entity with how many records were read (the CLI's progress lines). */
  onProgress?: (entity: ImportEntity, read: number) => void
  /** Called after each record with how many were read so far, of `total` when known (the CLI's progress bar). */
  onRecord?: (entity: ImportEntity, read: number, total: number | null) => void
}

/** An affiliate of the program, by the tool's id: its id here (null when a dry run would create it) and email. */
export interface Known {
  id: number | null
  email: string
}

export interface ImportRun {
  program: AffiliateProgram | ProjectScope
  source: ImportSource
  options: ImportOptions
  dryRun: boolean
  report: ImportReport
  settings: ProjectSettings
  /** The affiliates imported or found, by the tool's id. */
  known: Map<string, Known>
  /** The paid commissions of this run, by the tool's id: their affiliate here (payouts group them). */
  paid: Map<string, number | null>
  /** A dry run's reads of an affiliate's conversions by reference, by affiliate id. */
  existingConversions: Map<number, Promise<Map<string, ConversionView>>>
}

export async function startRun(program: AffiliateProgram | ProjectScope, source: ImportSource, options: ImportOptions): Promise<ImportRun> {
  const dryRun = options.dryRun ?? false
  const report = new ImportReport(source.name, dryRun)
  const settings = await program.settings()
  return { program, source, options, dryRun, report, settings, known: new Map(), paid: new Map(), existingConversions: new Map() }
}

/** Now, by the program's clock when it has one. */
export const now = ({ program }: ImportRun): Date => ('clock' in program ? program.clock.now() : new Date())

/** What an imported affiliate carries in `customFields.importedFrom`. */
export const marker = (run: ImportRun, id: string): string => `${run.source.name}:${id}`

/** The reference of an imported commission's conversion: `import:<tool>:<id>`. */
export const reference = (run: ImportRun, id: string): string => `${IMPORTED_REFERENCE_PREFIX}${run.source.name}:${id}`

/**
 * Runs one record's writes; a refusal of the program (bad field, conflict) is that record's error,
 * anything else stops the import. A record another run created between the look-up and the create
 * (a unique email or code) is looked up again once, and then found.
 */
export async function attempt(run: ImportRun, entity: ImportEntity, sourceId: string, work: () => Promise<void>, again = true): Promise<void> {
  try {
    await work()
  } catch (error) {
    if (again && error instanceof ConflictError && (error.field === 'email' || error.field === 'code')) return attempt(run, entity, sourceId, work, false)
    if (!(error instanceof AffiliateError)) throw error
    run.report.count(entity, sourceId, 'error', { ...(error.field ? { field: error.field } : {}), message: error.message })
  }
}

/** The record's affiliate, or null after reporting that it was not imported. */
export function affiliateOf(run: ImportRun, entity: ImportEntity, sourceId: string, affiliateSourceId: string): Known | null {
  const affiliate = run.known.get(affiliateSourceId)
  if (!affiliate) run.report.count(entity, sourceId, 'error', { field: 'affiliate', message: `affiliate ${affiliateSourceId} was not imported` })
  return affiliate ?? null
}
