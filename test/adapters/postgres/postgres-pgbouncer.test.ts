// The conformance suite against PostgreSQL through a PgBouncer in transaction mode that this file
// starts (test/support/sql/pgbouncer.ts): the storage with `pooler: 'transaction'` (docs/pooler.md).
import { runStorageConformance } from '../../conformance/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { pgBouncerRoute } from '../../support/sql/pgbouncer.js'
import { postgresStoredText } from '../../support/sql/stored-text.js'

const route = pgBouncerRoute()
let schema = ''

runStorageConformance({
  name: `postgres${route.title}`,
  multiConnection: true,
  ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
  setup: async () => {
    const fresh = freshPostgresStorage({}, route)
    schema = fresh.schema
    return { storage: fresh.storage, cleanup: fresh.cleanup }
  },
  // What the tables hold, read straight from the server (the pooler is only the storage's way in).
  storedText: () => postgresStoredText(DATABASE_URL!, schema),
})
