// Cross-cutting behaviour of createHandler: auth and scopes, rate limit, Idempotency-Key, body
// limits and content types, unknown routes, unexpected errors, the webhook test route, tenancy.
import { createServer } from 'node:http'
import { describe, expect, test } from 'vitest'
import type { AffiliateProgram } from '../../src/index.js'
import { createHandler } from '../../src/http/index.js'
import { caller, setup } from '../support/http/helpers.js'
import { listen } from '../support/http/transports.js'

describe('auth and scopes', () => {
  test('401 for a missing, malformed, unknown or revoked key; 403 for a missing scope', async () => {
    const s = await setup()
    for (const key of [null, 'rgk_short', 'rgk_' + 'A'.repeat(43), 'Basic abc']) {
      const res = await s.call('GET', '/affiliates', undefined, { key })
      expect(res.status, String(key)).toBe(401)
      expect(res.body).toEqual({ success: false, error: expect.any(String) })
    }
    const basic = await s.call('GET', '/affiliates', undefined, { key: null, headers: { authorization: `Basic ${s.key}` } })
    expect(basic.status).toBe(401)
    const { key, record } = await s.program.keys.create({ scopes: ['affiliates:read'] })
    expect((await s.call('GET', '/affiliates', undefined, { key })).status).toBe(200)
    const denied = await s.call('POST', '/affiliates', { email: 'a@b.co' }, { key })
    expect(denied.status).toBe(403)
    expect(denied.body.error).toContain('affiliates:write')
    expect((await s.call('GET', '/conversions', undefined, { key })).status).toBe(403)
    expect((await s.call('GET', '/affiliates')).body.data).toEqual([])
    await s.program.keys.revoke(record.id)
    expect((await s.call('GET', '/affiliates', undefined, { key })).status).toBe(401)
  })

  test('the alternative shape answers with error objects carrying the code table of docs/api.md', async () => {
    const s = await setup({ handler: { shape: 'alternative', rateLimit: { limit: 2 } } })
    const readOnly = await s.keyWith(['affiliates:read'])
    expect((await s.call('GET', '/affiliates', undefined, { key: null })).body.error).toMatchObject({ code: 'authentication_error' })
    expect((await s.call('POST', '/affiliates', { email: 'a@b.co', name: 'A' }, { key: readOnly })).body.error).toMatchObject({ code: 'permission_denied' })
    expect((await s.call('GET', '/affiliates/aff_99')).body.error).toMatchObject({ code: 'resource_not_found' })
    expect((await s.call('GET', '/affiliates/aff_99')).status).toBe(404)
    const limited = await s.call('GET', '/affiliates/aff_99')
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatchObject({ code: 'rate_limit_exceeded', details: { field: null } })
  })
})

describe('rate limit', () => {
  test('headers on every response; 429 with Retry-After past the limit; smooth refill', async () => {
    const s = await setup({ handler: { rateLimit: { limit: 3, windowSeconds: 60 } } })
    const remaining: string[] = []
    for (let i = 0; i < 3; i += 1) {
      const res = await s.call('GET', i === 1 ? '/nowhere' : '/affiliates')
      expect(res.status).toBe(i === 1 ? 404 : 200)
      expect(res.headers.get('x-ratelimit-limit')).toBe('3')
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(s.clock.now().getTime() / 1000))
      remaining.push(res.headers.get('x-ratelimit-remaining')!)
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const limited = await s.call('GET', '/affiliates')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('20')
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(limited.body).toEqual({ success: false, error: expect.stringContaining('rate limit') })
    // Another key has its own allowance.
    expect((await s.call('GET', '/affiliates', undefined, { key: await s.keyWith(['*']) })).status).toBe(200)
    // GCRA: one request comes back every 20 s, not the whole window at once.
    s.clock.advance({ seconds: 20 })
    expect((await s.call('GET', '/affiliates')).status).toBe(200)
    expect((await s.call('GET', '/affiliates')).status).toBe(429)
  })
})

describe('Idempotency-Key', () => {
  test('replays the stored answer, creates once; another body with the key is 409; expires after 24 h', async () => {
    const s = await setup()
    const headers = { 'idempotency-key': 'create-ann-1' }
    const first = await s.call('POST', '/affiliates', { email: 'ann@example.com' }, { headers })
    expect(first.status).toBe(201)
    const replay = await s.call('POST', '/affiliates', { email: 'ann@example.com' }, { headers })
    expect(replay.status).toBe(201)
    expect(replay.text).toBe(first.text)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect((await s.call('GET', '/affiliates')).body.pagination.total).toBe(1)
    const other = await s.call('POST', '/affiliates', { email: 'bob@example.com' }, { headers })
    expect(other.status).toBe(409)
    expect(other.body.error).toContain('Idempotency-Key')
    // A stored 4xx is replayed too.
    const badHeaders = { 'idempotency-key': 'bad-1' }
    expect((await s.call('POST', '/affiliates', { email: 'ann@example.com' }, { headers: badHeaders })).status).toBe(409)
    await s.call('DELETE', '/affiliates/ann%40example.com')
    expect((await s.call('POST', '/affiliates', { email: 'ann@example.com' }, { headers: badHeaders })).status).toBe(409)
    s.clock.advance({ hours: 24, seconds: 1 })
    expect((await s.call('POST', '/affiliates', { email: 'ann@example.com' }, { headers: badHeaders })).status).toBe(201)
    expect((await s.call('POST', '/affiliates', { email: 'x@example.com' }, { headers: { 'idempotency-key': 'bad key with spaces' } })).status).toBe(400)
  })

  test('a request still running with the same key is 409; a 500 is not stored', async () => {
    const s = await setup()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let fail = true
    const slow = {
      ...s.program,
      project: (id: string) => {
        const scope = s.program.project(id)
        return {
          ...scope,
          affiliates: {
            ...scope.affiliates,
            create: async (input: Parameters<typeof scope.affiliates.create>[0]) => {
              await gate
              if (fail) throw new Error('database went away')
              return scope.affiliates.create(input)
            },
          },
        }
      },
    } as AffiliateProgram
    const errors: unknown[] = []
    const call = caller(createHandler(slow, { onError: (error) => errors.push(error) }), s.key)
    const headers = { 'idempotency-key': 'k-1' }
    const running = call('POST', '/affiliates', { email: 'ann@example.com' }, { headers })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect((await call('POST', '/affiliates', { email: 'ann@example.com' }, { headers })).status).toBe(409)
    release()
    const failed = await running
    expect(failed.status).toBe(500)
    expect(failed.body).toEqual({ success: false, error: 'internal server error' })
    expect(errors).toHaveLength(1)
    fail = false
    expect((await call('POST', '/affiliates', { email: 'ann@example.com' }, { headers })).status).toBe(201)
  })
})

describe('bodies, routes and unexpected errors', () => {
  test('413 over maxBodyBytes, 415 without JSON, 400 invalid JSON or non-object; nothing written', async () => {
    const s = await setup({ handler: { maxBodyBytes: 200 } })
    const big = await s.call('POST', '/affiliates', { email: 'a@b.co', payment_details: 'x'.repeat(300) })
    expect(big.status).toBe(413)
    expect((await s.call('POST', '/affiliates', undefined, { raw: 'email=a@b.co', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415)
    expect((await s.call('POST', '/affiliates', undefined, { raw: '{"email": "a@b.co"}', headers: { 'content-type': 'text/plain' } })).status).toBe(415)
    expect((await s.call('POST', '/affiliates', undefined, { raw: '{"email": ' })).status).toBe(400)
    expect((await s.call('POST', '/affiliates', undefined, { raw: '' })).status).toBe(400)
    expect((await s.call('POST', '/affiliates', undefined, { raw: '[1]' })).body.error).toContain('JSON object')
    expect((await s.call('POST', '/affiliates', undefined, { raw: '{"email":"a@b.co"}', headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(201)
    expect((await s.call('GET', '/affiliates')).body.pagination.total).toBe(1)
  })

  test('404 unknown route or outside the base path; 405 with Allow', async () => {
    const s = await setup({ handler: { basePath: '/affiliates-api/v1/' } })
    expect((await s.call('GET', 'http://x.test/affiliates-api/v1/affiliates')).status).toBe(200)
    expect((await s.call('GET', 'http://x.test/affiliates-api/v1/nothing')).status).toBe(404)
    expect((await s.call('GET', 'http://x.test/affiliates-api/v1affiliates')).status).toBe(404)
    expect((await s.call('GET', 'http://x.test/api/v1/affiliates')).status).toBe(404)
    const wrong = await s.call('PATCH', 'http://x.test/affiliates-api/v1/affiliates/a%40b.co', {})
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, PUT, DELETE')
  })

  test('an unexpected failure is logged through onError and answered with a generic 500', async () => {
    const s = await setup()
    const broken = {
      ...s.program,
      project: (id: string) => {
        const scope = s.program.project(id)
        return { ...scope, affiliates: { ...scope.affiliates, list: async () => Promise.reject(new Error('secret connection string')) } }
      },
    } as AffiliateProgram
    const logged: unknown[] = []
    const call = caller(createHandler(broken, { onError: (error) => logged.push(error) }), s.key)
    const res = await call('GET', '/affiliates')
    expect(res.status).toBe(500)
    expect(res.text).not.toContain('secret')
    expect(res.body).toEqual({ success: false, error: 'internal server error' })
    expect((logged[0] as Error).message).toBe('secret connection string')
  })
})

describe('webhook test route (outside the base path)', () => {
  test('401 / 403 / 404 for another project / 400 unknown eventType / 404 unknown webhook', async () => {
    const s = await setup()
    const hook = await s.program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted'] })
    const path = `/api/project/${s.program.projectId}/webhooks/${hook.id}/test`
    expect((await s.call('POST', path, { eventType: 'referral_converted' }, { key: null })).status).toBe(401)
    const noScope = await s.keyWith(['affiliates:write'])
    expect((await s.call('POST', path, { eventType: 'referral_converted' }, { key: noScope })).status).toBe(403)
    const other = await s.program.projects.create({ name: 'other' })
    const otherKey = (await s.program.project(other.id).keys.create()).key
    expect((await s.call('POST', path, { eventType: 'referral_converted' }, { key: otherKey })).status).toBe(404)
    const unknownType = await s.call('POST', path, { eventType: 'referral_exploded' })
    expect(unknownType.status).toBe(400)
    expect(unknownType.body.error).toContain('eventType')
    expect((await s.call('POST', `/api/project/${s.program.projectId}/webhooks/999/test`, { eventType: 'referral_converted' })).status).toBe(404)
    expect((await s.call('GET', path)).status).toBe(405)
  })
})

test('webhook test route of a handler made without a dispatcher: 501 after the usual checks, in both shapes, nothing recorded', async () => {
  const s = await setup()
  const hook = await s.program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted'] })
  const path = `/api/project/${s.program.projectId}/webhooks/${hook.id}/test`
  for (const shape of ['primary', 'alternative'] as const) {
    const call = caller(createHandler(s.program, { shape, rateLimit: false }), s.key)
    const refused = await call('POST', path, { eventType: 'referral_converted' })
    expect(refused.status).toBe(501)
    expect(refused.text).toContain('this server sends no webhooks')
    expect((await call('POST', `/api/project/${s.program.projectId}/webhooks/999/test`, { eventType: 'referral_converted' })).status).toBe(404)
    expect((await call('POST', path, { eventType: 'referral_exploded' })).status).toBe(400)
  }
  expect((await s.program.webhooks.deliveries()).total).toBe(0)
})

test('webhook test route sends a signed test delivery to a real local receiver and reports it', async () => {
  const received: { event: string | undefined; body: string }[] = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push({ event: req.headers['x-service-event'] as string | undefined, body })
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('thanks')
    })
  })
  const origin = await listen(receiver)
  try {
    const s = await setup({ settings: { allowPrivateNetworks: true } })
    const hook = await s.program.webhooks.create({ url: `${origin}/hook`, events: ['referral_converted'], secret: 'whsec_test' })
    const res = await s.call('POST', `/api/project/${s.program.projectId}/webhooks/${hook.id}/test`, { eventType: 'referral_converted' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, status: 200, response: 'thanks' })
    expect(received).toHaveLength(1)
    expect(received[0]!.event).toBe('referral_converted')
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: 'referral_converted' })
  } finally {
    await new Promise((resolve) => receiver.close(resolve))
  }
})

