// An import as `affiliate-kit import` asks for it and what it prints: the same whether the command
// runs it itself or a running server does for it (key-socket.ts).
import type { ImporterName } from '../importers/registry.js'
import type { ImportReportData } from '../importers/report.js'

/** What to import, as the command line says it; sent as is to a running server (its CSV directory absolute). */
export interface ImportSpec {
  tool: ImporterName
  csvDir: string | null
  api: { apiKey: string; apiUrl: string; programId?: string } | null
  dryRun: boolean
  update: boolean
}

/** The import's printed summary, its JSON report and its count of refused records. */
export interface ImportOutcomeLines {
  summary: string[]
  report: ImportReportData
  errors: number
}
