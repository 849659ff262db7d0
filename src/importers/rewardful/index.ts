// Rewardful in the importers' registry (docs/migrating.md#rewardful).
import type { Importer } from '../importer.js'
import { REWARDFUL_API_URL } from './client.js'
import { rewardfulCsvExports } from './csv-exports.js'
import { rewardfulSource } from './source.js'

export const rewardfulImporter: Importer = {
  label: 'Rewardful',
  env: 'REWARDFUL',
  keyHelp: "the API Secret from Rewardful's Company Settings page",
  defaultApiUrl: REWARDFUL_API_URL,
  apiSource: ({ apiKey, apiUrl, onRetry }) => rewardfulSource({ apiKey, apiUrl, onRetry }),
  csv: rewardfulCsvExports,
}
