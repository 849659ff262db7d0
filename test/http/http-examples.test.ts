// The examples start on a free port and answer a create-and-retrieve round trip over real HTTP.
// Express mounts express.json() first and the API under a sub-path; both must keep working.
import { describe, expect, test } from 'vitest'
import { start as startExpress } from '../../examples/express/server.js'
import { start as startHono } from '../../examples/hono/server.js'
import { run as runInProcess } from '../../examples/in-process/main.js'
import { start as startNode } from '../../examples/node-http/server.js'

describe.each([
  ['node:http', startNode],
  ['Express (express.json() first, mounted under /affiliates-api)', startExpress],
  ['Hono', startHono],
])('%s example', (_name, start) => {
  test('create, retrieve, update and error answers over real HTTP', async () => {
    const { url, key, close } = await start(0)
    try {
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
      const created = await fetch(`${url}/affiliates`, { method: 'POST', headers: auth, body: JSON.stringify({ email: 'ann@example.com', referral_code: 'ANN1' }) })
      expect(created.status).toBe(201)
      expect(created.headers.get('x-ratelimit-limit')).toBe('100')
      const { data } = (await created.json()) as { data: { id: number } }
      const got = await fetch(`${url}/affiliates/ann%40example.com`, { headers: auth })
      expect(got.status).toBe(200)
      expect(await got.json()).toMatchObject({ success: true, data: { id: data.id, user_email: 'ann@example.com', referral_code: 'ANN1', clicks: 0 } })
      const updated = await fetch(`${url}/affiliates/ann%40example.com`, { method: 'PUT', headers: auth, body: JSON.stringify({ status: 'inactive' }) })
      expect(((await updated.json()) as { data: { status: string } }).data.status).toBe('inactive')
      const conversion = await fetch(`${url}/conversions`, { method: 'POST', headers: auth, body: JSON.stringify({ type: 'purchase', affiliate_id: data.id, base_value: 19.99, reference: 'r1' }) })
      expect(conversion.status).toBe(201)
      const bad = await fetch(`${url}/conversions`, { method: 'POST', headers: auth, body: JSON.stringify({ type: 'purchase', affiliate_id: data.id, base_value: 'lots' }) })
      expect(bad.status).toBe(400)
      expect(((await bad.json()) as { error: string }).error).toContain('base_value')
      expect((await fetch(`${url}/affiliates`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
      const deleted = await fetch(`${url}/affiliates/ann%40example.com`, { method: 'DELETE', headers: auth })
      expect(deleted.status).toBe(204)
      expect(await deleted.text()).toBe('')
    } finally {
      await close()
    }
  })
})

test('in-process example: program API and handler without a socket', async () => {
  const result = await runInProcess()
  expect(result.attribution).toEqual({ affiliateId: result.affiliate.id, matchedBy: 'referral_code' })
  expect(result.conversion.value).toBe('14.70')
  expect(result.unpaidEarnings).toBe('14.70')
})
