// The conformance suite against PostgreSQL (DATABASE_URL), on a fresh schema dropped afterwards.
import { runStorageConformance } from '../../conformance/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { postgresStoredText } from '../../support/sql/stored-text.js'

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
  storedText: () => postgresStoredText(DATABASE_URL!, schema),
})
