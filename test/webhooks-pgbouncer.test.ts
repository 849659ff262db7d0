// Webhook dispatchers in several processes over one PostgreSQL schema, each through a PgBouncer
// in transaction mode this file starts (test/webhooks/postgres-dispatchers.suite.ts).
import { pgBouncerRoute } from './sql/pgbouncer.js'
import { postgresDispatchersSuite } from './webhooks/postgres-dispatchers.suite.js'

postgresDispatchersSuite(pgBouncerRoute())
