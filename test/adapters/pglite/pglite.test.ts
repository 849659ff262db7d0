// The conformance suite against PGlite (in memory).
import { PGlite } from '@electric-sql/pglite'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { runStorageConformance } from '../../conformance/index.js'
import { sqlStoredText } from '../../support/sql/stored-text.js'

let db: PGlite

runStorageConformance({
  name: 'pglite',
  setup: async () => {
    db = new PGlite()
    const storage = pgliteStorage({ db })
    return {
      storage,
      cleanup: async () => {
        await storage.close()
        await db.close()
      },
    }
  },
  storedText: () => sqlStoredText(async (text) => (await db.query(text)).rows as Array<Record<string, unknown>>, 'affiliate_kit'),
})
