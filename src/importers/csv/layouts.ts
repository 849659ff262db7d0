// Every registered tool's CSV layout, by the tool's name (csvSource's first argument): its exports
// (<tool>/csv-exports.ts) with its label, both from the importers' registry.
import { IMPORTER_NAMES, IMPORTERS, type ImporterName } from '../registry.js'
import type { CsvLayout } from './layout.js'

/** A tool whose exports csvSource reads: every registered one. */
export type CsvTool = ImporterName

export const CSV_LAYOUTS = Object.fromEntries(IMPORTER_NAMES.map((name) => [name, { label: IMPORTERS[name].label, ...IMPORTERS[name].csv }])) as Record<CsvTool, CsvLayout>
