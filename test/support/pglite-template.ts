// A PGlite data directory with every migration applied, made once per run by test/support/global-setup.ts.
// Copying it (a fraction of a second) stands in for a fresh directory's initdb and migrations
// (seconds each, more with four test files at once) in tests about something else.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const TEMPLATE = fileURLToPath(new URL('../../.test-build/pglite-template', import.meta.url))
const STAMP = fileURLToPath(new URL('../../.test-build/.pglite-template', import.meta.url))

/** Fills `dir` (made when missing) with a migrated, empty PGlite database; returns `dir`. */
export function migratedDataDir(dir: string): string {
  cpSync(TEMPLATE, dir, { recursive: true })
  return dir
}

/** Makes the template unless the one there was made from these sources (`hash`). */
export async function buildPgliteTemplate(hash: string): Promise<void> {
  if (existsSync(TEMPLATE) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) return
  rmSync(TEMPLATE, { recursive: true, force: true })
  const { pgliteStorage } = await import('../../src/adapters/pglite/index.js')
  const storage = pgliteStorage({ dataDir: TEMPLATE })
  // The first transaction runs the migrations.
  await storage.transaction(async () => undefined)
  await storage.close()
  writeFileSync(STAMP, hash)
}
