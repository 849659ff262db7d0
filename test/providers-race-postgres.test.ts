// A checkout's events twice at once over three servers on one PostgreSQL schema, each straight to
// the server (test/providers/race-postgres.suite.ts).
import { providersRaceSuite } from './providers/race-postgres.suite.js'
import { DIRECT } from './sql/pg-schema.js'

providersRaceSuite(DIRECT, { rounds: 10 })
