// A checkout's events twice at once over three servers on one PostgreSQL schema, each straight to
// the server (test/support/providers/race-postgres.suite.ts).
import { providersRaceSuite } from '../support/providers/race-postgres.suite.js'
import { DIRECT } from '../support/sql/pg-schema.js'

// Six rounds: each delivers all seven providers' checkouts (ten when there were three providers).
providersRaceSuite(DIRECT, { rounds: 6 })
