// A checkout's events twice at once over three servers on one PostgreSQL schema, each through a
// PgBouncer in transaction mode this file starts (test/support/providers/race-postgres.suite.ts). Fewer
// rounds than straight: what the pooler could break (a transaction's statements on one server
// connection, unnamed statements) shows in any round; the many orders are tried straight.
import { providersRaceSuite } from '../support/providers/race-postgres.suite.js'
import { pgBouncerRoute } from '../support/sql/pgbouncer.js'

providersRaceSuite(pgBouncerRoute(), { rounds: 3 })
