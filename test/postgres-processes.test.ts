// Several processes against one PostgreSQL schema, each straight to the server (test/sql/processes.suite.ts).
import { DIRECT } from './sql/pg-schema.js'
import { postgresProcessesSuite } from './sql/processes.suite.js'

postgresProcessesSuite(DIRECT)
