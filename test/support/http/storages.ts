// The three storages HTTP-level tests run against: memory, PGlite (a copy of the migrated template,
// test/support/pglite-template.ts) and PostgreSQL on a fresh schema (skipped, with the reason in the title, when DATABASE_URL is not set).
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import type { StoragePort } from '../../../src/index.js'
import type { WithSessionStore } from '../../../src/core/ports/session-store.js'
import { migratedPgliteStorage } from '../pglite-template.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../sql/pg-schema.js'

export interface StorageUnderTest {
  name: string
  /** Set when the storage cannot run here. */
  skip?: string
  /** `schema`: PostgreSQL's fresh schema, for raw SQL checks. */
  make(): { storage: StoragePort & WithSessionStore; schema?: string; cleanup: () => Promise<void> }
}

export const STORAGES: StorageUnderTest[] = [
  { name: 'memory', make: () => ({ storage: memoryStorage(), cleanup: async () => {} }) },
  {
    name: 'pglite',
    make: () => migratedPgliteStorage(),
  },
  {
    name: 'postgres',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    make: () => freshPostgresStorage(),
  },
]
