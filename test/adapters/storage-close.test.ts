// Closing twice is harmless: an app that closes its program and then the storage it passed in
// (or either twice, as shutdown hooks do) gets no error, on every adapter.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { createAffiliateProgram, type StoragePort } from '../../src/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

async function closesTwice(storage: StoragePort): Promise<void> {
  const program = await createAffiliateProgram({ storage })
  await program.affiliates.create({ email: 'ann@example.com' })
  await program.close()
  await expect(storage.close()).resolves.toBeUndefined()
  await expect(Promise.all([program.close(), storage.close()])).resolves.toBeDefined()
}

describe('program.close() then storage.close()', () => {
  it('resolves on memory storage', async () => {
    await closesTwice(memoryStorage())
  })

  it('resolves on PGlite, and the data directory can be opened again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'affiliate-kit-close-'))
    try {
      await closesTwice(pgliteStorage({ dataDir }))
      const again = await createAffiliateProgram({ storage: pgliteStorage({ dataDir }) })
      expect((await again.affiliates.get('ann@example.com')).email).toBe('ann@example.com')
      await again.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it.skipIf(!DATABASE_URL)(`resolves on PostgreSQL ("Called end on pool more than once" before)${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, async () => {
    const { storage, cleanup } = freshPostgresStorage()
    try {
      await closesTwice(storage)
    } finally {
      await cleanup()
    }
  })
})
