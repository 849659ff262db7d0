// The admin console over plain fetch: sign-in with an admin key only, a portal session never
// opens it, CSRF on every POST (a missing token changes nothing), actions go through the
// program (same validation), batch payouts are all-or-nothing, and each action is in the audit
// log, also through GET /api/v1/audit-log.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../src/http/index.js'
import { adminFixture, Agent, owedAffiliate, signedInAgent, signInWithKey } from './admin/helpers.js'

describe('admin console sign-in', () => {
  it('exchanges a key of scope * for an HttpOnly session scoped to /admin, and refuses other keys', async () => {
    const fixture = await adminFixture()
    const agent = new Agent(fixture.admin)
    expect((await agent.get('/admin/')).headers.get('location')).toBe('/admin/sign-in')
    const response = await signInWithKey(agent, fixture.adminKey)
    expect(response.status).toBe(303)
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('ak_admin='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\/admin/)
    const page = await agent.get('/admin/')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Owner (key')

    const { key: readOnly } = await fixture.program.keys.create({ name: 'reader', scopes: ['affiliates:read'] })
    const { key: revoked, record } = await fixture.program.keys.create({ name: 'old', scopes: ['*'] })
    await fixture.program.keys.revoke(record.id)
    for (const key of [readOnly, revoked, 'rgk_notakeyatallnotakeyatall', '']) {
      const other = new Agent(fixture.admin)
      const refused = await signInWithKey(other, key)
      expect(refused.status).toBe(401)
      expect(other.cookies.has('ak_admin')).toBe(false)
    }
  })

  it('ends the session when its key is revoked', async () => {
    const fixture = await adminFixture()
    const agent = await signedInAgent(fixture)
    const key = (await fixture.program.keys.list()).find((candidate) => candidate.name === 'Owner')!
    await fixture.program.keys.revoke(key.id)
    const page = await agent.get('/admin/')
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/admin/sign-in?ended=1')
  })

  it('never lets a portal session in, under either cookie name', async () => {
    const fixture = await adminFixture()
    await fixture.program.affiliates.create({ email: 'ann@example.com' })
    const portalAgent = new Agent(fixture.portal)
    const { url } = await fixture.portal.createSignInLink('ann@example.com')
    expect((await portalAgent.signIn(url)).status).toBe(303)
    const portalSession = portalAgent.cookies.get('ak_portal')!
    expect((await portalAgent.get('/portal/')).status).toBe(200)
    for (const cookie of [`ak_admin=${portalSession}`, `ak_portal=${portalSession}`]) {
      const response = await fixture.admin(new Request('http://portal.test/admin/', { headers: { cookie } }))
      expect(response.status).toBe(303)
      expect(response.headers.get('location')).toMatch(/^\/admin\/sign-in/)
      const post = await fixture.admin(
        new Request('http://portal.test/admin/keys', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'scope=*' }),
      )
      expect(post.status).toBe(401)
    }
    expect((await fixture.program.keys.list()).length).toBe(1)
  })
})

describe('admin console actions', () => {
  it('changes nothing on a POST without its CSRF token, or with another session’s token', async () => {
    const fixture = await adminFixture()
    const pending = await fixture.program.affiliates.create({ email: 'pending@example.com', status: 'pending' })
    const agent = await signedInAgent(fixture)
    const other = await signedInAgent(fixture)
    const otherToken = await other.csrfOf('/admin/keys')
    const attempts: Array<Record<string, string>> = [{ status: 'active' }, { status: 'active', csrf: '' }, { status: 'active', csrf: otherToken }]
    for (const fields of attempts) {
      const response = await agent.post(`/admin/affiliates/${pending.id}/status`, fields)
      expect(response.status).toBe(403)
      expect(await response.text()).toContain('expired')
    }
    expect((await fixture.program.affiliates.get(pending.id)).status).toBe('pending')
    expect((await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 50, offset: 0 })).items.map((entry) => entry.action)).toEqual([
      'console.sign_in',
      'console.sign_in',
    ])
  })

  it('answers bad input with a 4xx page and changes nothing', async () => {
    const fixture = await adminFixture()
    const ann = await owedAffiliate(fixture.program, 'ann@example.com', [100])
    const agent = await signedInAgent(fixture)
    const csrf = await agent.csrfOf('/admin/keys')
    const cases: Array<[string, Record<string, string>, number]> = [
      [`/admin/affiliates/${ann.id}/status`, { csrf, status: 'deleted' }, 400],
      ['/admin/affiliates/999/status', { csrf, status: 'blocked' }, 404],
      ['/admin/review', { csrf, decision: 'approve' }, 400],
      ['/admin/review', { csrf, decision: 'approve', id: 'x' }, 400],
      ['/admin/payouts', { csrf, email: 'ann@example.com', amount: '-1', method: 'paypal' }, 400],
      ['/admin/payouts', { csrf, email: 'ann@example.com', amount: '10', method: 'cheque' }, 400],
      ['/admin/payouts/export', { csrf, format: 'excel', affiliate: String(ann.id) }, 400],
      ['/admin/keys', { csrf, scope: 'root' }, 400],
      ['/admin/keys/999/revoke', { csrf }, 404],
      ['/admin/webhooks/deliveries/999/retry', { csrf }, 404],
    ]
    for (const [path, fields, status] of cases) {
      const response = await agent.post(path, fields)
      expect([path, response.status]).toEqual([path, status])
      expect(await response.text()).toContain('Nothing was changed')
    }
    expect((await fixture.program.affiliates.get(ann.id)).status).toBe('active')
    expect((await fixture.program.payouts.list()).total).toBe(0)
    expect((await fixture.program.keys.list()).length).toBe(1)
    expect((await agent.get('/admin/nowhere')).status).toBe(404)
    expect((await agent.post('/admin/affiliates/abc/status', { csrf, status: 'blocked' })).status).toBe(404)
    expect((await agent.get('/admin/webhooks?page=0')).status).toBe(400)
  })

  it('exports a PayPal batch to the cent and marks it paid in one transaction, all or none', async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture
    const ann = await owedAffiliate(program, 'ann@example.com', [49, 100.1], { paypalEmail: 'ann@paypal.test' }) // 14.70 + 30.03
    const bob = await owedAffiliate(program, 'bob@example.com', [99.99]) // 30.00 (29.997 rounded)
    const cy = await owedAffiliate(program, 'cy@example.com', [0.05]) // 0.02 (0.015 rounded half up)
    clock.advance({ days: 31 })
    const agent = await signedInAgent(fixture)
    const page = await (await agent.get('/admin/payouts')).text()
    expect(page).toContain('44.73 USD')
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
    const fields = new URLSearchParams({ csrf, format: 'paypal' })
    for (const [affiliate, amount] of [[ann, '44.73'], [bob, '30.00'], [cy, '0.02']] as const) {
      fields.append('affiliate', String(affiliate.id))
      fields.append(`amount_${affiliate.id}`, amount)
    }
    const exported = await agent.request('/admin/payouts/export', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() })
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="paypal-payouts-2026-03-04\.csv"$/)
    const csv = await exported.text()
    expect(csv.split('\r\n').filter(Boolean)).toEqual([
      `ann@paypal.test,44.73,USD,aff_${ann.id},Affiliate commissions 2026-03-04`,
      `bob@example.com,30.00,USD,aff_${bob.id},Affiliate commissions 2026-03-04`,
      `cy@example.com,0.02,USD,aff_${cy.id},Affiliate commissions 2026-03-04`,
    ])

    const tooMuch = new URLSearchParams(fields)
    tooMuch.set(`amount_${cy.id}`, '0.03')
    tooMuch.set('method', 'paypal')
    const refused = await agent.request('/admin/payouts/batch', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: tooMuch.toString() })
    expect(refused.status).toBe(400)
    expect((await program.payouts.list()).total).toBe(0)
    expect((await program.affiliates.get(ann.id)).earnings.eligible).toBe('44.73')

    fields.set('method', 'paypal')
    const paid = await agent.request('/admin/payouts/batch', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() })
    expect(paid.status).toBe(303)
    for (const affiliate of [ann, bob, cy]) {
      const after = await program.affiliates.get(affiliate.id)
      expect([after.earnings.eligible, after.earnings.unpaid]).toEqual(['0.00', '0.00'])
    }
    expect((await program.payouts.list()).items.map((payout) => payout.amount).sort()).toEqual(['0.02', '30.00', '44.73'])
  })

  it('records each action in the audit log, readable by API with a key of scope * only', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const pending = await program.affiliates.create({ email: 'pending@example.com', status: 'pending' })
    const self = await program.affiliates.create({ email: 'self@example.com' })
    const conversion = await program.conversions.create({ type: 'purchase', affiliateId: self.id, email: 'self@example.com', baseValue: 10 })
    expect(conversion.conversion.status).toBe('review')
    const agent = await signedInAgent(fixture)
    let csrf = await agent.csrfOf('/admin/keys')
    expect((await agent.post(`/admin/affiliates/${pending.id}/status`, { csrf, status: 'active' })).status).toBe(303)
    const review = await (await agent.get('/admin/review')).text()
    expect(review).toContain('Self-referral')
    expect((await agent.post('/admin/review', { csrf, decision: 'reject', id: String(conversion.conversion.id) })).status).toBe(303)
    expect((await program.conversions.get(conversion.conversion.id)).status).toBe('rejected')
    const created = await agent.post('/admin/keys', { csrf, name: 'ci', scope: 'affiliates:read' })
    const shown = /value="(rgk_[A-Za-z0-9]+)" data-new-key/.exec(await created.text())![1]!
    expect((await program.verifyApiKey(shown))?.scopes).toEqual(['affiliates:read'])
    const ci = (await program.keys.list()).find((key) => key.name === 'ci')!
    expect((await agent.post(`/admin/keys/${ci.id}/revoke`, { csrf, scope: '' })).status).toBe(303)
    csrf = await agent.csrfOf('/admin/keys')
    expect((await agent.post('/admin/sign-out', { csrf })).status).toBe(303)

    const api = createHandler(program, { auditLog: fixture.storage, rateLimit: false })
    const answer = await api(new Request('http://api.test/api/v1/audit-log', { headers: { authorization: `Bearer ${fixture.adminKey}` } }))
    expect(answer.status).toBe(200)
    const body = (await answer.json()) as { data: Array<{ action: string; actor_name: string; target: string | null }>; total: number }
    expect(body.data.map((entry) => [entry.action, entry.target])).toEqual([
      ['api_key.revoke', `api_key:${ci.id}`],
      ['api_key.create', `api_key:${ci.id}`],
      ['conversion.reject', `conversion:${conversion.conversion.id}`],
      ['affiliate.approve', `affiliate:${pending.id}`],
      ['console.sign_in', null],
    ])
    expect(new Set(body.data.map((entry) => entry.actor_name)).size).toBe(1)
    expect(body.data[0]!.actor_name).toMatch(/^Owner \(key rgk_/)
    const { key: reader } = await program.keys.create({ scopes: ['affiliates:read'] })
    expect((await api(new Request('http://api.test/api/v1/audit-log', { headers: { authorization: `Bearer ${reader}` } }))).status).toBe(403)
    const without = createHandler(program, { rateLimit: false })
    expect((await without(new Request('http://api.test/api/v1/audit-log', { headers: { authorization: `Bearer ${fixture.adminKey}` } }))).status).toBe(404)
    const alternative = createHandler(program, { auditLog: fixture.storage, rateLimit: false, shape: 'alternative' })
    const alt = (await (await alternative(new Request('http://api.test/api/v1/audit-log?limit=2', { headers: { authorization: `Bearer ${fixture.adminKey}` } }))).json()) as {
      data: { auditLog: Array<{ actorName: string }> }
    }
    expect(alt.data.auditLog).toHaveLength(2)
  })

  it('lets an authorize hook say who is there, and refuses whom it refuses', async () => {
    const fixture = await adminFixture({
      sessions: undefined,
      authorize: (request) => (request.headers.get('x-user') === 'alice' ? { id: 'user:alice', name: 'Alice' } : null),
    })
    const pending = await fixture.program.affiliates.create({ email: 'pending@example.com', status: 'pending' })
    expect((await fixture.admin(new Request('http://admin.test/admin/'))).status).toBe(403)
    expect((await fixture.admin(new Request('http://admin.test/admin/sign-in'))).status).toBe(404)
    const agent = new Agent((request) => {
      request.headers.set('x-user', 'alice')
      return fixture.admin(request)
    })
    const csrf = await agent.csrfOf('/admin/keys')
    expect((await agent.post(`/admin/affiliates/${pending.id}/status`, { csrf: 'forged', status: 'active' })).status).toBe(403)
    expect((await agent.post(`/admin/affiliates/${pending.id}/status`, { csrf, status: 'active' })).status).toBe(303)
    const log = await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 10, offset: 0 })
    expect(log.items.map((entry) => [entry.actorId, entry.actorName, entry.action])).toEqual([['user:alice', 'Alice', 'affiliate.approve']])
  })
})
