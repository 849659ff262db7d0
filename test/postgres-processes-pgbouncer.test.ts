// Several processes against one PostgreSQL schema, each through a PgBouncer in transaction mode
// this file starts (test/sql/processes.suite.ts, test/sql/pgbouncer.ts).
import { pgBouncerRoute } from './sql/pgbouncer.js'
import { postgresProcessesSuite } from './sql/processes.suite.js'

postgresProcessesSuite(pgBouncerRoute())
