// createHandler's keyed state (docs/limits.md "Rate limit", docs/idempotency.md): without `state`
// each handler keeps rate limits and Idempotency-Key answers in its own memory. Handlers sharing
// the storage's `keyedState`: http-sql.test.ts and the conformance idempotency cases.
import { expect, test } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { caller } from '../support/http/helpers.js'

async function twoHandlers() {
  const program = await createAffiliateProgram({ storage: memoryStorage() })
  const { key } = await program.keys.create()
  const options = { rateLimit: { limit: 2, windowSeconds: 60 } }
  return { a: caller(createHandler(program, options), key), b: caller(createHandler(program, options), key) }
}

test('without state, each handler has its own rate limit and its own Idempotency-Key answers', async () => {
  const { a, b } = await twoHandlers()
  const headers = { 'idempotency-key': 'own-1' }
  expect((await a('POST', '/affiliates', { email: 'ann@example.com' }, { headers })).status).toBe(201)
  // Not a replay: b never saw the key, so it runs the request (and the email is taken).
  const repeat = await b('POST', '/affiliates', { email: 'ann@example.com' }, { headers })
  expect(repeat.status).toBe(409)
  expect(repeat.headers.get('idempotent-replayed')).toBeNull()
  // Two requests per key and window, counted by each handler apart.
  expect((await a('GET', '/affiliates')).headers.get('x-ratelimit-remaining')).toBe('0')
  expect((await b('GET', '/affiliates')).status).toBe(200)
  expect((await a('GET', '/affiliates')).status).toBe(429)
})
