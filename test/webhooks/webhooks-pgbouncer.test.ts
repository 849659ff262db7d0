// Webhook dispatchers in several processes over one PostgreSQL schema, each through a PgBouncer
// in transaction mode this file starts (test/support/webhooks/postgres-dispatchers.suite.ts).
import { pgBouncerRoute } from '../support/sql/pgbouncer.js'
import { postgresDispatchersSuite } from '../support/webhooks/postgres-dispatchers.suite.js'

postgresDispatchersSuite(pgBouncerRoute())
