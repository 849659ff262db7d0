// What a tool's folder gives the importers' registry (registry.ts): the tool's name as people write
// it, how `affiliate-kit import <name>` reads its API (the key's environment variable and where
// the key is found, the API base, a program id when the tool lists everything per program), its
// API source, and where its CSV exports put things.
import type { CsvExports } from './csv/layout.js'
import type { ImportSource } from './source.js'

/** What the command line gives a tool's API source. */
export interface ImporterApiOptions {
  apiKey: string
  apiUrl: string
  /** The program to read, for a tool that asks for one (`programId` below). */
  programId?: string
  /** Told before each retry of a refused (429) page: the CLI prints it on one line. */
  onRetry: (line: string) => void
}

export interface Importer {
  /** The tool's name as people write it: help, progress and summary lines (`read from Rewardful`). */
  label: string
  /** Its environment variables' prefix: `<env>_API_KEY`, `<env>_API_URL` (and `<env>_PROGRAM_ID`). */
  env: string
  /** Where the tool shows its API key: the help of `--api-key` and the line of a missing key. */
  keyHelp: string
  /** The API base, version prefix included (`--api-url` replaces it). */
  defaultApiUrl: string
  /** For a tool that lists everything per program (Tolt): `--program-id`'s help, and why it is needed. */
  programId?: { help: string; why: string }
  apiSource(options: ImporterApiOptions): ImportSource
  csv: CsvExports
}
