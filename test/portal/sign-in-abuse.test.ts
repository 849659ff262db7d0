// What a stranger can make the sign-in pages do: emailed portal links always point at publicUrl,
// whatever Host the request names; links emailed per address, link requests and sign-ins per
// client are limited (answering the same for every address); failed console sign-ins are in the
// audit log. In process, on memory storage with a test clock (no waiting).
import { describe, expect, it } from 'vitest'
import { adminFixture, Agent, signInWithKey } from '../support/admin/helpers.js'
import { portalFixture } from '../support/portal/helpers.js'
import type { Portal } from '../../src/portal/index.js'

const PUBLIC_URL = 'https://partners.example.com'
/** An agent whose requests come from `clientAddress`, as node:http (or a Fetch host) reports it. */
const from = (handler: Portal | ((request: Request, client?: { clientAddress?: string }) => Promise<Response>), clientAddress: string) =>
  new Agent((request) => handler(request, { clientAddress }))
const withoutCsrf = (text: string) => text.replace(/name="csrf" value="[^"]+"/g, '')

async function emailingPortal(options: Parameters<typeof portalFixture>[0] = {}) {
  const sent: Array<{ email: string; link: string }> = []
  const fixture = await portalFixture({ publicUrl: PUBLIC_URL, onSignInRequested: (request) => void sent.push(request), ...options })
  await fixture.program.affiliates.create({ email: 'ann@example.com' })
  return { ...fixture, sent }
}

describe('portal sign-in links never follow the request', () => {
  it('refuses onSignInRequested without publicUrl', async () => {
    await expect(portalFixture({ onSignInRequested: () => {} })).rejects.toThrow(/publicUrl is required with onSignInRequested/)
  })

  it('emails a link on publicUrl whatever Host, X-Forwarded-Host or Forwarded the request names', async () => {
    const { portal, sent } = await emailingPortal()
    const hosts: Array<[string, Record<string, string>]> = [
      ['http://evil.example', {}],
      ['http://portal.test', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
      ['http://portal.test', { forwarded: 'host=evil.example;proto=https' }],
    ]
    for (const [origin, headers] of hosts) {
      const agent = new Agent((request) => portal(new Request(request, { headers: { ...Object.fromEntries(request.headers), ...headers } })), origin)
      const csrf = await agent.csrfOf('/portal/sign-in')
      expect((await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })).status).toBe(200)
    }
    expect(sent).toHaveLength(3)
    for (const { link } of sent) expect(link).toMatch(/^https:\/\/partners\.example\.com\/portal\/sign-in\?token=[A-Za-z0-9_-]{43}$/)
  })
})

describe('portal sign-in limits', () => {
  it('emails one address 3 links per 15 minutes however often it is asked, answering every request the same', async () => {
    const { portal, sent, clock } = await emailingPortal()
    const agent = new Agent(portal) // no client address: only the per-address limit applies
    const csrf = await agent.csrfOf('/portal/sign-in')
    const answers = new Set<string>()
    for (let i = 0; i < 100; i += 1) {
      const response = await agent.post('/portal/sign-in/email', { csrf, email: i % 2 === 0 ? 'ann@example.com' : ' ANN@Example.com ' })
      expect(response.status).toBe(200)
      answers.add(withoutCsrf(await response.text()))
    }
    const unknown = await agent.post('/portal/sign-in/email', { csrf, email: 'nobody@example.com' })
    answers.add(withoutCsrf(await unknown.text()))
    expect(answers.size).toBe(1) // known, limited and unknown addresses read the same
    expect(sent).toHaveLength(3)
    clock.advance({ minutes: 5 }) // the allowance refills one link per 5 minutes
    await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })
    await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })
    expect(sent).toHaveLength(4)
  })

  it('answers 429 to a client past 10 link requests per 15 minutes, counting an IPv6 /64 as one client', async () => {
    const { portal, program, sent } = await emailingPortal()
    for (let i = 0; i < 12; i += 1) await program.affiliates.create({ email: `a${i}@example.com` })
    const statuses = []
    for (let i = 0; i < 12; i += 1) {
      const agent = from(portal, `2001:db8:1:2::${i.toString(16)}`)
      const csrf = await agent.csrfOf('/portal/sign-in')
      const response = await agent.post('/portal/sign-in/email', { csrf, email: `a${i}@example.com` })
      statuses.push(response.status)
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(await response.text()).toContain('Too many attempts')
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429])
    expect(sent).toHaveLength(10)
    const other = from(portal, '198.51.100.4')
    const csrf = await other.csrfOf('/portal/sign-in')
    expect((await other.post('/portal/sign-in/email', { csrf, email: 'a11@example.com' })).status).toBe(200)
    expect(sent.map((request) => request.email).at(-1)).toBe('a11@example.com')
  })

  it('answers 429 to a client past 20 sign-in attempts per 5 minutes, without using a link up', async () => {
    const { portal, program, clock } = await portalFixture()
    await program.affiliates.create({ email: 'ann@example.com' })
    const attacker = from(portal, '203.0.113.9')
    const csrf = await attacker.csrfOf(`/portal/sign-in?token=${'A'.repeat(43)}`)
    const statuses = []
    for (let i = 0; i < 21; i += 1) statuses.push((await attacker.post('/portal/sign-in', { csrf, token: 'A'.repeat(43) })).status)
    expect(statuses).toEqual([...Array(20).fill(400), 429])
    const { url } = await portal.createSignInLink('ann@example.com')
    const limited = await attacker.signIn(url)
    expect(limited.status).toBe(429)
    expect(await limited.text()).toContain(new URL(url, 'http://x').searchParams.get('token')!) // the form keeps the link for a retry
    expect((await from(portal, '203.0.113.10').signIn(url)).status).toBe(303) // the link was not used up
    clock.advance({ minutes: 5 })
    const { url: next } = await portal.createSignInLink('ann@example.com')
    expect((await attacker.signIn(next)).status).toBe(303)
  })

  it('takes limits from the options, and false turns one off', async () => {
    const { portal, sent } = await emailingPortal({ limits: { emailPerAddress: { limit: 1, windowSeconds: 3600 }, emailPerClient: false } })
    const agent = from(portal, '203.0.113.9')
    const csrf = await agent.csrfOf('/portal/sign-in')
    for (let i = 0; i < 30; i += 1) expect((await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })).status).toBe(200)
    expect(sent).toHaveLength(1)
    await expect(portalFixture({ limits: { signInPerClient: { limit: 0, windowSeconds: 60 } } })).rejects.toThrow('limits.signInPerClient.limit must be a positive whole number')
  })

  it('counts clients by the last X-Forwarded-For entry only with trustProxy', async () => {
    const { portal, program } = await portalFixture({ trustProxy: true })
    await program.affiliates.create({ email: 'ann@example.com' })
    // Behind one proxy: the client may send any X-Forwarded-For; the proxy appends the address it saw.
    const viaProxy = (forwardedFor: string) =>
      new Agent((request) => {
        request.headers.set('x-forwarded-for', forwardedFor)
        return portal(request, { clientAddress: '10.0.0.2' })
      })
    const statuses = []
    for (let i = 0; i < 21; i += 1) {
      const agent = viaProxy(`198.51.100.${i}, 203.0.113.9`)
      const csrf = await agent.csrfOf(`/portal/sign-in?token=${'A'.repeat(43)}`)
      statuses.push((await agent.post('/portal/sign-in', { csrf, token: 'A'.repeat(43) })).status)
    }
    expect(statuses.at(-1)).toBe(429)
    const other = viaProxy('203.0.113.10')
    expect((await other.post('/portal/sign-in', { csrf: await other.csrfOf(`/portal/sign-in?token=${'A'.repeat(43)}`), token: 'A'.repeat(43) })).status).toBe(400)
    // Without trustProxy the header is the client's own text: a new value each time changes nothing.
    const direct = await portalFixture()
    const results = []
    for (let i = 0; i < 21; i += 1) {
      const agent = new Agent((request) => {
        request.headers.set('x-forwarded-for', `198.51.100.${i}`)
        return direct.portal(request, { clientAddress: '203.0.113.9' })
      })
      const csrf = await agent.csrfOf(`/portal/sign-in?token=${'A'.repeat(43)}`)
      results.push((await agent.post('/portal/sign-in', { csrf, token: 'A'.repeat(43) })).status)
    }
    expect(results.at(-1)).toBe(429)
  })
})

describe('clients behind a proxy that writes ports', () => {
  it('counts an X-Forwarded-For entry with a port (203.0.113.9:41234, [2001:db8::9]:443) by its address', async () => {
    const { portal, program } = await portalFixture({ trustProxy: true })
    await program.affiliates.create({ email: 'ann@example.com' })
    for (const [address, port] of [['203.0.113.9', (n: number) => `203.0.113.9:${40000 + n}`], ['2001:db8::9', (n: number) => `[2001:db8::${n.toString(16)}]:${40000 + n}`]] as const) {
      const statuses = []
      for (let n = 0; n < 21; n += 1) {
        const agent = new Agent((request) => {
          request.headers.set('x-forwarded-for', port(n))
          return portal(request, { clientAddress: '10.0.0.2' })
        })
        const csrf = await agent.csrfOf(`/portal/sign-in?token=${'A'.repeat(43)}`)
        statuses.push((await agent.post('/portal/sign-in', { csrf, token: 'A'.repeat(43) })).status)
      }
      expect(statuses, address).toEqual([...Array(20).fill(400), 429])
    }
  })
})

describe('admin console key sign-in', () => {
  it('records failed sign-ins in the audit log without the key', async () => {
    const fixture = await adminFixture()
    const { program, storage } = fixture
    const { record: reader } = await program.keys.create({ name: 'Reader', scopes: ['affiliates:read'] })
    const readerKey = (await program.keys.create({ name: 'Reader 2', scopes: ['affiliates:read'] })).key
    const agent = from(fixture.admin, '203.0.113.9')
    expect((await signInWithKey(agent, `rgk_${'Wrong1Key2'.repeat(4)}`)).status).toBe(401)
    expect((await signInWithKey(agent, readerKey)).status).toBe(401)
    expect((await signInWithKey(agent, fixture.adminKey)).status).toBe(303)
    const { items } = await storage.auditLog.list(program.projectId, { limit: 10, offset: 0 })
    const entries = items.reverse().map(({ actorId, actorName, action, target, detail }) => ({ actorId, actorName, action, target, detail }))
    expect(entries).toEqual([
      { actorId: 'client:203.0.113.9', actorName: '203.0.113.9', action: 'console.sign_in_failed', target: null, detail: 'not a key of this project' },
      { actorId: 'client:203.0.113.9', actorName: '203.0.113.9', action: 'console.sign_in_failed', target: `api_key:${reader.id + 1}`, detail: 'the key lacks the * scope' },
      { actorId: 'key:1', actorName: 'Owner (key ' + fixture.adminKey.slice(0, 8) + '…)', action: 'console.sign_in', target: null, detail: null },
    ])
    expect(JSON.stringify(items)).not.toContain('Wrong1Key2')
  })

  it('answers 429 to a client past 10 sign-in attempts per 5 minutes, even with the right key', async () => {
    const fixture = await adminFixture()
    const attacker = from(fixture.admin, '203.0.113.9')
    const statuses = []
    for (let i = 0; i < 10; i += 1) statuses.push((await signInWithKey(attacker, `rgk_${String(i).padStart(40, 'x')}`)).status)
    const limited = await signInWithKey(attacker, fixture.adminKey)
    expect(statuses).toEqual(Array(10).fill(401))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.text()).toContain('Too many sign-in attempts')
    expect((await signInWithKey(from(fixture.admin, '198.51.100.4'), fixture.adminKey)).status).toBe(303)
    const { total } = await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 1, offset: 0 })
    expect(total).toBe(11) // 10 refused attempts and one sign-in; the limited attempt is not recorded
    fixture.clock.advance({ minutes: 1 })
    expect((await signInWithKey(attacker, fixture.adminKey)).status).toBe(303)
  })
})
