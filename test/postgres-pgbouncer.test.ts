// The conformance suite against PostgreSQL through a PgBouncer in transaction mode that this file
// starts (test/sql/pgbouncer.ts): the storage with `pooler: 'transaction'` (docs/pooler.md).
import { runStorageConformance } from './conformance/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from './sql/pg-schema.js'
import { pgBouncerRoute } from './sql/pgbouncer.js'

const route = pgBouncerRoute()

runStorageConformance({
  name: `postgres${route.title}`,
  multiConnection: true,
  ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
  setup: async () => freshPostgresStorage({}, route),
})
