// Dub in the importers' registry (docs/migrating.md#dub).
import type { Importer } from '../importer.js'
import { dubCsvExports } from './csv-exports.js'
import { DUB_API_URL, dubSource } from './source.js'

export const dubImporter: Importer = {
  label: 'Dub',
  env: 'DUB',
  keyHelp: "a workspace API key from Dub's Settings → API Keys",
  defaultApiUrl: DUB_API_URL,
  apiSource: ({ apiKey, apiUrl, onRetry }) => dubSource({ apiKey, apiUrl, onRetry }),
  csv: dubCsvExports,
}
