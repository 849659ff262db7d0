// What one schema migration is: a version, a name, its statements and, for work on existing rows,
// a batch run until done (applied by ../migrations.ts).
import type { SqlClient } from '../executor.js'

export interface Migration {
  version: number
  name: string
  /** `{s}` stands for the quoted schema name. */
  statements: string[]
  /**
   * Work on existing rows done after the statements, one batch per transaction (true when none
   * is left), so it holds no lock for long: the version is recorded with the last batch, and
   * until then each start runs the (idempotent) statements again and resumes.
   */
  batch?: (tx: SqlClient, s: string) => Promise<boolean>
}
