// Webhook dispatchers in several processes over one PostgreSQL schema, each straight to the
// server (test/support/webhooks/postgres-dispatchers.suite.ts).
import { DIRECT } from '../support/sql/pg-schema.js'
import { postgresDispatchersSuite } from '../support/webhooks/postgres-dispatchers.suite.js'

postgresDispatchersSuite(DIRECT)
