// `npm run test:fast`, for day-to-day work: the memory and PGlite conformance suite and the unit
// tests, chosen by room (test/ mirrors src/; README "Contributing: where things live"). Left out:
// the rooms that need Chromium (test/browser/), spawn the affiliate-kit command or a whole server
// (test/cli/, test/process/: pack, the README's commands, the servers' drains) and PostgreSQL's
// own (test/adapters/postgres/); the PostgreSQL and PgBouncer parts of the other files skip, as
// without DATABASE_URL. `npm test` runs everything.
import { configDefaults, defineConfig } from 'vitest/config'
import base from './vitest.config.js'

export const SLOW_ROOMS = ['test/browser/**', 'test/cli/**', 'test/process/**', 'test/adapters/postgres/**']

// Read at import by the PostgreSQL helpers (test/support/sql/pg-schema.ts), here and in the workers.
delete process.env.DATABASE_URL

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...SLOW_ROOMS],
  },
})
