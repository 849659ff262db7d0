// Several processes against one PostgreSQL schema, each straight to the server (test/support/sql/processes.suite.ts).
import { DIRECT } from '../../support/sql/pg-schema.js'
import { postgresProcessesSuite } from '../../support/sql/processes.suite.js'

postgresProcessesSuite(DIRECT)
