// Webhook dispatchers in several processes over one PostgreSQL schema, each straight to the
// server (test/webhooks/postgres-dispatchers.suite.ts).
import { DIRECT } from './sql/pg-schema.js'
import { postgresDispatchersSuite } from './webhooks/postgres-dispatchers.suite.js'

postgresDispatchersSuite(DIRECT)
