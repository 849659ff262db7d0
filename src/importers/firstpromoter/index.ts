// FirstPromoter in the importers' registry (docs/migrating.md#firstpromoter).
import type { Importer } from '../importer.js'
import { firstPromoterCsvExports } from './csv-exports.js'
import { FIRSTPROMOTER_API_URL, firstPromoterSource } from './source.js'

export const firstPromoterImporter: Importer = {
  label: 'FirstPromoter',
  env: 'FIRSTPROMOTER',
  keyHelp: "the API key from FirstPromoter's Settings → Integrations",
  defaultApiUrl: FIRSTPROMOTER_API_URL,
  apiSource: ({ apiKey, apiUrl, onRetry }) => firstPromoterSource({ apiKey, apiUrl, onRetry }),
  csv: firstPromoterCsvExports,
}
