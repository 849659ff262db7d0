// Once before all test files: builds the affiliate-kit command the process tests run
// (.test-build/cli/main.js, skipped while the sources are unchanged) and a migrated PGlite
// directory to copy (test/support/pglite-template.ts), and says whether the
// PostgreSQL tests run, and why not, and whether the PgBouncer ones can.
import { execFileSync } from 'node:child_process'
import { buildPgliteTemplate } from './pglite-template.js'
import { pgbouncerBinary } from './sql/pgbouncer.js'

export default async function setup(): Promise<void> {
  const root = new URL('../..', import.meta.url).pathname
  execFileSync(process.execPath, ['scripts/build-serve.mjs', '.test-build'], { cwd: root, stdio: 'inherit' })
  const { sourcesHash } = (await import('../../scripts/sources-hash.mjs')) as { sourcesHash(): string }
  await buildPgliteTemplate(sourcesHash())
  const database = process.env.DATABASE_URL
  console.log(
    database
      ? `PostgreSQL tests: on, against ${new URL(database).host} (DATABASE_URL)`
      : 'PostgreSQL tests: skipped, DATABASE_URL is not set (CI sets it; export DATABASE_URL=postgres://... to run them)',
  )
  if (database) {
    try {
      console.log(`PgBouncer tests: on, with ${pgbouncerBinary()}`)
    } catch (error) {
      console.log(`PgBouncer tests: will fail, ${(error as Error).message}`)
    }
  }
}
