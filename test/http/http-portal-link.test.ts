// POST /affiliates/{email}/portal-link (docs/api.md): a one-time portal sign-in link, in both
// shapes, built from the portal's configured public URL only (never the request's Host or
// X-Forwarded-Host), refused with 409 when the handler has no portal or the portal no public URL,
// never replayed from an Idempotency-Key, never for an affiliate of another project.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/index.js'
import { createHandler } from '../../src/http/index.js'
import { createPortal } from '../../src/portal/index.js'
import { caller, setup } from '../support/http/helpers.js'
import { Agent } from '../support/portal/helpers.js'

const PUBLIC_URL = 'https://partners.example.com'
const SIGN_IN_LINK = new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/portal/sign-in\\?token=[A-Za-z0-9_-]{20,}$`)
const SPOOFED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', forwarded: 'host=evil.example' }

async function withPortal(shape: 'primary' | 'alternative', publicUrl: string | null = PUBLIC_URL) {
  const s = await setup()
  const portal = createPortal(s.program, { sessions: s.storage, ...(publicUrl ? { publicUrl } : {}) })
  const handler = createHandler(s.program, { shape, portal, rateLimit: false, state: s.storage.keyedState })
  await s.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  return { ...s, portal, handler, call: caller(handler, s.key, 'http://evil.example') }
}

describe('POST /affiliates/{email}/portal-link', () => {
  it('answers a link on the configured public URL whatever Host the request names, and the link signs the affiliate in once', async () => {
    const s = await withPortal('primary')
    const reply = await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { headers: SPOOFED })
    expect(reply.status).toBe(201)
    expect(reply.body.success).toBe(true)
    expect(reply.body.data.url).toMatch(SIGN_IN_LINK)
    expect(reply.body.data.expires_at).toBe('2026-03-01T00:15:00.000Z')
    expect(reply.text).not.toContain('evil.example')

    const agent = new Agent(s.portal)
    const path = reply.body.data.url.slice(PUBLIC_URL.length)
    const signedIn = await agent.signIn(path)
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get('location')).toBe('/portal/')
    expect(await (await agent.get('/portal/')).text()).toContain('ann@example.com')
    expect((await new Agent(s.portal).signIn(path)).status).toBe(400)
  })

  it('answers the alternative shape by email or aff_ id', async () => {
    const s = await withPortal('alternative')
    for (const ref of ['ann%40example.com', 'aff_1']) {
      const reply = await s.call('POST', `/affiliates/${ref}/portal-link`, undefined, { headers: SPOOFED })
      expect(reply.status).toBe(201)
      expect(Object.keys(reply.body.data)).toEqual(['portalLink'])
      expect(reply.body.data.portalLink.url).toMatch(SIGN_IN_LINK)
      expect(reply.body.data.portalLink.expiresAt).toBe('2026-03-01T00:15:00.000Z')
    }
    const missing = await s.call('POST', '/affiliates/nobody%40example.com/portal-link')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('resource_not_found')
  })

  it('is 409 without a portal or without its public URL, in both shapes, and makes no link', async () => {
    for (const shape of ['primary', 'alternative'] as const) {
      const s = await setup({ handler: { shape } })
      await s.program.affiliates.create({ email: 'ann@example.com' })
      const none = await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { headers: SPOOFED })
      expect(none.status, shape).toBe(409)
      expect(JSON.stringify(none.body)).toMatch(/no affiliate portal here.*portal\.enabled/)

      const pathOnly = await withPortal(shape, null)
      const refused = await pathOnly.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { headers: SPOOFED })
      expect(refused.status, shape).toBe(409)
      expect(JSON.stringify(refused.body)).toMatch(/no public URL.*portal\.publicUrl/)
      if (shape === 'alternative') expect(refused.body.error.code).toBe('conflict')
      else expect(refused.body).toEqual({ success: false, error: expect.stringContaining('portal.publicUrl') })
    }
  })

  it('needs affiliates:write, and answers 404 for an unknown email and 400 for a blocked affiliate', async () => {
    const s = await withPortal('primary')
    const reader = await s.keyWith(['affiliates:read'])
    expect((await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { key: reader })).status).toBe(403)
    const writer = await s.keyWith(['affiliates:write'])
    expect((await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { key: writer })).status).toBe(201)
    const { key: publishable } = await s.program.keys.createPublishable()
    expect((await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { key: publishable })).status).toBe(403)
    expect((await s.call('POST', '/affiliates/nobody%40example.com/portal-link')).status).toBe(404)
    expect((await s.call('POST', '/affiliates/not-an-email/portal-link')).status).toBe(400)
    await s.program.affiliates.update('ann@example.com', { status: 'blocked' })
    const blocked = await s.call('POST', '/affiliates/ann%40example.com/portal-link')
    expect(blocked.status).toBe(400)
    expect(blocked.body.error).toMatch(/blocked/)
  })

  it('makes a fresh link for each request, also under one Idempotency-Key (the link is never stored for a replay)', async () => {
    const s = await withPortal('primary')
    const headers = { 'idempotency-key': 'same-key-1' }
    const first = await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { headers })
    const second = await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { headers })
    expect([first.status, second.status]).toEqual([201, 201])
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    expect(second.body.data.url).not.toBe(first.body.data.url)
  })

  it("never makes a link for another project's affiliate of the same email", async () => {
    const s = await withPortal('primary')
    const other = await s.program.projects.create({ name: 'other' })
    const otherApi = s.program.project(other.id)
    await otherApi.affiliates.create({ email: 'ann@example.com' })
    const otherKey = (await otherApi.keys.create()).key
    const reply = await s.call('POST', '/affiliates/ann%40example.com/portal-link', undefined, { key: otherKey })
    expect(reply.status).toBe(409)
    expect(reply.text).not.toContain('token=')
  })

  it('is the typed client affiliates.portalLink, over node:http', async () => {
    const s = await withPortal('primary')
    const server = createServer(s.handler.node)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const client = createClient({ baseURL: `http://127.0.0.1:${port}/api/v1`, apiKey: s.key })
      const { data } = await client.affiliates.portalLink('ann@example.com')
      expect(data.url).toMatch(SIGN_IN_LINK)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
