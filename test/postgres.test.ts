// The conformance suite against PostgreSQL (DATABASE_URL), on a fresh schema dropped afterwards.
import pg from 'pg'
import { runStorageConformance } from './conformance/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from './sql/pg-schema.js'
import { sqlStoredText } from './sql/stored-text.js'

let schema = ''

runStorageConformance({
  name: 'postgres',
  multiConnection: true,
  ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
  setup: async () => {
    const fresh = freshPostgresStorage()
    schema = fresh.schema
    return { storage: fresh.storage, cleanup: fresh.cleanup }
  },
  storedText: async () => {
    const client = new pg.Client({ connectionString: DATABASE_URL })
    await client.connect()
    try {
      return await sqlStoredText(async (text) => (await client.query(text)).rows, schema)
    } finally {
      await client.end()
    }
  },
})
