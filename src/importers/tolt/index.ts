// Tolt in the importers' registry (docs/migrating.md#tolt): its API reads one program at a time.
import type { Importer } from '../importer.js'
import { ImportSourceError } from '../source.js'
import { toltCsvExports } from './csv-exports.js'
import { TOLT_API_URL, toltSource } from './source.js'

export const toltImporter: Importer = {
  label: 'Tolt',
  env: 'TOLT',
  keyHelp: "the API key from Tolt's Settings → Integrations",
  defaultApiUrl: TOLT_API_URL,
  programId: { help: 'the Tolt program to read (prg_...)', why: 'Tolt lists partners and commissions per program' },
  apiSource: ({ apiKey, apiUrl, programId, onRetry }) => {
    if (!programId) throw new ImportSourceError('Tolt lists partners and commissions per program: give the program id (prg_...)')
    return toltSource({ apiKey, apiUrl, programId, onRetry })
  },
  csv: toltCsvExports,
}
