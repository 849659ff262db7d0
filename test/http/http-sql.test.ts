// The handler over PGlite: the SQL keyed-state store is shared by every program (process) using
// the storage: the rate limit, and an Idempotency-Key claimed through one handler is seen by another.
import { expect, onTestFinished, test } from 'vitest'
import { createAffiliateProgram } from '../../src/index.js'
import { createHandler } from '../../src/http/index.js'
import { caller } from '../support/http/helpers.js'
import { migratedPgliteStorage } from '../support/pglite-template.js'

test('two programs over one PGlite share the rate limit and idempotency keys', async () => {
  const { storage, cleanup } = migratedPgliteStorage()
  onTestFinished(cleanup)
  const first = await createAffiliateProgram({ storage })
  const second = await createAffiliateProgram({ storage })
  expect(second.projectId).toBe(first.projectId)
  const { key } = await first.keys.create()
  const a = caller(createHandler(first, { rateLimit: { limit: 4, windowSeconds: 60 }, state: storage.keyedState }), key)
  const b = caller(createHandler(second, { rateLimit: { limit: 4, windowSeconds: 60 }, state: storage.keyedState }), key)
  const headers = { 'idempotency-key': 'shared-1' }
  const created = await a('POST', '/affiliates', { email: 'ann@example.com' }, { headers })
  expect(created.status).toBe(201)
  const replay = await b('POST', '/affiliates', { email: 'ann@example.com' }, { headers })
  expect(replay.status).toBe(201)
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
  expect((await a('GET', '/affiliates/ann%40example.com')).body.data.user_email).toBe('ann@example.com')
  expect((await b('GET', '/affiliates')).headers.get('x-ratelimit-remaining')).toBe('0')
  const limited = await a('GET', '/affiliates')
  expect(limited.status).toBe(429)
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  await first.close()
})
