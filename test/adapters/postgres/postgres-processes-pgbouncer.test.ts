// Several processes against one PostgreSQL schema, each through a PgBouncer in transaction mode
// this file starts (test/support/sql/processes.suite.ts, test/support/sql/pgbouncer.ts).
import { pgBouncerRoute } from '../../support/sql/pgbouncer.js'
import { postgresProcessesSuite } from '../../support/sql/processes.suite.js'

postgresProcessesSuite(pgBouncerRoute())
