// The conformance suite against PostgreSQL (DATABASE_URL), on a fresh schema dropped afterwards.
import { runStorageConformance } from './conformance/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from './sql/pg-schema.js'

runStorageConformance({
  name: 'postgres',
  multiConnection: true,
  ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
  setup: async () => {
    const { storage, cleanup } = freshPostgresStorage()
    return { storage, cleanup }
  },
})
