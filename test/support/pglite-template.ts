// A PGlite data directory with every migration applied, made once per run by test/support/global-setup.ts.
// Copying it (a fraction of a second) stands in for a fresh directory's initdb and migrations
// (seconds each, more with four test files at once) in tests about something else.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pgliteStorage as openPglite, type PgliteStorageOptions } from '../../src/adapters/pglite/index.js'
import type { StoragePort } from '../../src/index.js'

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

/**
 * A PGlite storage on its own copy of the template (a temporary directory): a migrated, empty
 * database without the seconds of a fresh one's initdb and migrations, for tests about something
 * else. `cleanup` closes it and removes the directory. pglite.test.ts and the migration tests
 * still start from nothing.
 */
export function migratedPgliteStorage(options: Omit<PgliteStorageOptions, 'dataDir' | 'db'> = {}): { storage: StoragePort; dataDir: string; cleanup(): Promise<void> } {
  const parent = mkdtempSync(join(tmpdir(), 'affiliate-kit-pglite-'))
  const dataDir = migratedDataDir(join(parent, 'data'))
  const storage = openPglite({ ...options, dataDir })
  return {
    storage,
    dataDir,
    cleanup: async () => {
      try {
        await storage.close()
      } finally {
        rmSync(parent, { recursive: true, force: true })
      }
    },
  }
}
