// `npm run test:fast`, for day-to-day work (under 2 minutes on 2 cores): the conformance suite on
// memory and PGlite, the core's rooms and the in-process units around them (the API's two shapes
// and its pipeline, the webhook outbox, the typed client, the page table). Chosen by room (test/
// mirrors src/; README "Contributing: where things live"); without DATABASE_URL, so the
// PostgreSQL and PgBouncer parts of those files skip. `npm test` runs everything.
import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

export const FAST = [
  'test/adapters/memory/**/*.test.ts',
  'test/adapters/pglite/pglite.test.ts',
  'test/core/**/*.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/web/**/*.test.ts',
  'test/client/client.test.ts',
  'test/http/http-{primary,alternative,handler}.test.ts',
]

// Read at import by the PostgreSQL helpers (test/support/sql/pg-schema.ts), here and in the workers.
delete process.env.DATABASE_URL

export default defineConfig({
  ...base,
  test: { ...base.test, include: FAST },
})
