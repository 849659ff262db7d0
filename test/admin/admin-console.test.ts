// The admin console over plain fetch: sign-in with an admin key only, a portal session never
// opens it, CSRF on every POST (a missing token changes nothing), actions go through the
// program (same validation), batch payouts are all-or-nothing, and each action is in the audit
// log, also through GET /api/v1/audit-log.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { adminFixture, Agent, exportedPayoutFile, owedAffiliate, signedInAgent, signInWithKey, type AdminFixture } from '../support/admin/helpers.js'

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

describe('admin console conversions', () => {
  /** The ids in the conversions table of a page, in order. */
  const rowsOf = async (response: Response) => [...(await response.text()).matchAll(/data-conversion="(\d+)"/g)].map((match) => Number(match[1]))

  it('lists conversions newest first, filtered by status, affiliate, type and creation day', async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const bob = await program.affiliates.create({ email: 'bob@example.com' })
    const sale = (affiliateId: number, n: number) => program.conversions.create({ type: 'purchase', affiliateId, email: `buyer${n}@example.com`, baseValue: 100, reference: `s${n}` })
    const a1 = (await sale(ann.id, 1)).conversion.id // 2026-02-01, refunded below
    clock.advance({ days: 5 })
    const b1 = (await sale(bob.id, 2)).conversion.id // 2026-02-06, released when the list is read
    const signup = (await program.conversions.create({ type: 'signup', affiliateId: ann.id, email: 'new@example.com', value: 5 })).conversion.id
    clock.advance({ days: 30 })
    const a2 = (await sale(ann.id, 3)).conversion.id // 2026-03-08, still on hold
    const selfSale = (await program.conversions.create({ type: 'purchase', affiliateId: bob.id, email: 'bob@example.com', baseValue: 10 })).conversion.id // review
    await program.conversions.update(a1, { status: 'refunded' })
    const agent = await signedInAgent(fixture)

    const page = await agent.get('/admin/conversions')
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('aria-current="page">Conversions')
    expect([...text.matchAll(/data-conversion="(\d+)"/g)].map((match) => Number(match[1]))).toEqual([selfSale, a2, signup, b1, a1])
    const cases: Array<[string, number[]]> = [
      ['status=refunded', [a1]],
      ['status=review', [selfSale]],
      ['status=pending', [a2]],
      ['status=active', [signup, b1]],
      [`affiliate=ann%40example.com`, [a2, signup, a1]],
      [`affiliate=${bob.id}`, [selfSale, b1]],
      ['type=signup', [signup]],
      ['from=2026-02-06&to=2026-02-06', [signup, b1]],
      ['from=2026-02-02', [selfSale, a2, signup, b1]],
      ['to=2026-02-01', [a1]],
      [`affiliate=ann%40example.com&type=purchase&status=active`, []],
      [`affiliate=${ann.id}&status=pending&from=2026-03-01`, [a2]],
      ['affiliate=nobody%40example.com', []],
    ]
    for (const [query, expected] of cases) {
      const response = await agent.get(`/admin/conversions?${query}`)
      expect([query, response.status, await rowsOf(response)]).toEqual([query, 200, expected])
    }
    for (const query of ['status=paid', 'type=sale', 'from=2026-02-30', 'to=yesterday', 'affiliate=not%20an%20email', 'page=0']) {
      const response = await agent.get(`/admin/conversions?${query}`)
      const body = await response.text()
      expect([query, response.status]).toEqual([query, 400])
      expect(body).toMatch(/class="error" role="alert">[^<]+</)
      expect(body).toContain('Filter conversions')
    }
  })

  it('pages through a filtered list, keeping the filters in the page links', async () => {
    const fixture = await adminFixture()
    const ann = await fixture.program.affiliates.create({ email: 'ann@example.com' })
    for (let n = 0; n < 52; n += 1) await fixture.program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `b${n}@example.com`, baseValue: 1, reference: `r${n}` })
    const agent = await signedInAgent(fixture)
    const first = await (await agent.get('/admin/conversions?status=pending&type=purchase')).text()
    expect(first).toContain('52 conversions.')
    expect(first).toContain('href="/admin/conversions?status=pending&amp;type=purchase&amp;page=2"')
    expect(await rowsOf(await agent.get('/admin/conversions?status=pending&type=purchase&page=2'))).toHaveLength(2)
  })

  it('refunds part of a sale and then the rest through the same call as the API, audit-logged', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const sale = (n: number) => program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `buyer${n}@example.com`, baseValue: 99.99, reference: `s${n}` })
    const id = (await sale(1)).conversion.id // commission 30.00
    const twin = (await sale(2)).conversion.id
    const agent = await signedInAgent(fixture)
    const page = await (await agent.get(`/admin/conversions/${id}`)).text()
    expect(page).toContain('Leave empty to refund all that remains (99.99 USD)')
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!

    const partial = await agent.post(`/admin/conversions/${id}/refund`, { csrf, seen_refunded: '0.00', amount: '33.33', reason: 'one seat less' })
    expect(partial.status).toBe(303)
    expect(partial.headers.get('location')).toBe(`/admin/conversions/${id}?refunded=1`)
    const api = createHandler(program, { rateLimit: false })
    const put = await api(
      new Request(`http://api.test/api/v1/conversions/${twin}`, { method: 'PUT', headers: { authorization: `Bearer ${fixture.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ refund_amount: 33.33, reason: 'one seat less' }) }),
    )
    expect(put.status).toBe(200)
    const [byConsole, byApi] = [await program.conversions.get(id), await program.conversions.get(twin)]
    expect([byConsole.value, byConsole.refundedBaseValue, byConsole.status, byConsole.refundReason]).toEqual(['20.00', '33.33', 'pending', 'one seat less'])
    expect([byApi.value, byApi.refundedBaseValue, byApi.status]).toEqual([byConsole.value, byConsole.refundedBaseValue, byConsole.status])
    const after = await (await agent.get(`/admin/conversions/${id}?refunded=1`)).text()
    expect(after).toContain('The refund is saved.')
    expect(after).toContain('Leave empty to refund all that remains (66.66 USD)')

    expect((await agent.post(`/admin/conversions/${id}/refund`, { csrf, seen_refunded: '33.33', amount: '', reason: '' })).status).toBe(303)
    const refunded = await program.conversions.get(id)
    expect([refunded.status, refunded.refundedBaseValue]).toEqual(['refunded', '99.99'])
    expect((await program.affiliates.get(ann.id)).earnings.total).toBe('20.00') // the twin's commission only
    const log = await fixture.storage.auditLog.list(program.projectId, { limit: 10, offset: 0 })
    expect(log.items.slice(0, 2).map((entry) => [entry.action, entry.target, entry.detail])).toEqual([
      ['conversion.refund', `conversion:${id}`, '66.66 USD, in full'],
      ['conversion.refund', `conversion:${id}`, '33.33 USD: one seat less'],
    ])
  })

  it('shows a refused refund on the page with what was typed, and changes nothing', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const id = (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'buyer@example.com', baseValue: 50 })).conversion.id
    const done = (await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'other@example.com', baseValue: 10 })).conversion.id
    await program.conversions.update(done, { status: 'rejected' })
    const agent = await signedInAgent(fixture)
    const csrf = await agent.csrfOf(`/admin/conversions/${id}`)
    const cases: Array<[number, Record<string, string>, number, string]> = [
      [id, { amount: 'ten', seen_refunded: '0.00' }, 400, 'refundAmount'],
      [id, { amount: '50.01', seen_refunded: '0.00' }, 400, 'exceeds the remaining'],
      [id, { amount: '-5', seen_refunded: '0.00' }, 400, 'refundAmount'],
      [id, { amount: '1.234', seen_refunded: '0.00' }, 400, 'refundAmount'],
      [id, { amount: '5', seen_refunded: '0.00', reason: 'x'.repeat(501) }, 400, 'reason'],
      [id, { amount: '5', seen_refunded: '1.00' }, 409, 'refunded since the page was shown'],
      [id, { amount: '5' }, 409, 'refunded since the page was shown'],
      [done, { amount: '', seen_refunded: '0.00' }, 409, 'final'],
    ]
    for (const [target, fields, status, message] of cases) {
      const response = await agent.post(`/admin/conversions/${target}/refund`, { csrf, ...fields })
      const body = await response.text()
      expect([fields, response.status]).toEqual([fields, status])
      expect(body).toMatch(new RegExp(`role="alert"[^>]*>[^<]*${message}`))
      expect(body).toContain('Nothing was changed')
      if (target === id) expect(body).toContain(`value="${fields.amount}"`)
    }
    expect((await agent.post(`/admin/conversions/999/refund`, { csrf, amount: '', seen_refunded: '0.00' })).status).toBe(404)
    expect((await agent.post(`/admin/conversions/${id}/refund`, { amount: '5', seen_refunded: '0.00' })).status).toBe(403)
    expect((await agent.get('/admin/conversions/999')).status).toBe(404)
    const unchanged = await program.conversions.get(id)
    expect([unchanged.value, unchanged.refundedBaseValue, unchanged.status]).toEqual(['15.00', '0.00', 'pending'])
    expect((await fixture.storage.auditLog.list(program.projectId, { limit: 10, offset: 0 })).items.map((entry) => entry.action)).toEqual(['console.sign_in'])
  })
})

describe('admin console affiliate edit form', () => {
  /** Every field of the form as the page shows it (hidden csrf included). */
  const formOf = (page: string): Record<string, string> => {
    const fields: Record<string, string> = {}
    for (const match of page.matchAll(/<input [^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[match[1]!] = match[2]!
    for (const match of page.matchAll(/<select [^>]*name="([^"]+)"[^>]*>(.*?)<\/select>/g)) fields[match[1]!] = /<option value="([^"]*)" selected>/.exec(match[2]!)?.[1] ?? ''
    fields.paymentDetails = /<textarea [^>]*>([^<]*)<\/textarea>/.exec(page)![1]!
    return fields
  }

  it('saves the changed fields through affiliates.update and logs which changed', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com', name: 'Ann', referralCode: 'ANN1' })
    const agent = await signedInAgent(fixture)
    expect(await (await agent.get('/admin/')).text()).toContain(`href="/admin/affiliates/${ann.id}" aria-label="Edit ann@example.com"`)
    const form = formOf(await (await agent.get(`/admin/affiliates/${ann.id}`)).text())
    expect(form).toMatchObject({ name: 'Ann', email: 'ann@example.com', referralCode: 'ANN1', status: 'active', payoutMethod: '', paypalEmail: '', paymentDetails: '' })

    const saved = await agent.post(`/admin/affiliates/${ann.id}`, {
      ...form,
      name: 'Ann "the seller" Lee',
      status: 'inactive',
      payoutMethod: 'wise',
      paypalEmail: 'ann@paypal.test',
      wiseAccountId: 'acc-77',
      wiseEmail: 'ann@wise.test',
      paymentDetails: 'IBAN on file',
    })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe(`/admin/affiliates/${ann.id}?saved=1`)
    const after = await program.affiliates.get(ann.id)
    expect(after).toMatchObject({
      name: 'Ann "the seller" Lee',
      email: 'ann@example.com',
      referralCode: 'ANN1',
      status: 'inactive',
      payoutMethod: 'wise',
      paypalEmail: 'ann@paypal.test',
      wiseDetails: { accountId: 'acc-77', email: 'ann@wise.test' },
      paymentDetails: 'IBAN on file',
    })
    const page = await (await agent.get(`/admin/affiliates/${ann.id}?saved=1`)).text()
    expect(page).toContain('The affiliate is saved.')
    expect(page).toContain('value="Ann &quot;the seller&quot; Lee"')

    const cleared = await agent.post(`/admin/affiliates/${ann.id}`, { ...formOf(page), name: '', wiseAccountId: '', wiseEmail: '', payoutMethod: '' })
    expect(cleared.status).toBe(303)
    expect(await program.affiliates.get(ann.id)).toMatchObject({ name: null, wiseDetails: null, payoutMethod: null, paypalEmail: 'ann@paypal.test' })
    expect((await agent.post(`/admin/affiliates/${ann.id}`, formOf(await (await agent.get(`/admin/affiliates/${ann.id}`)).text()))).status).toBe(303)

    const log = await fixture.storage.auditLog.list(program.projectId, { limit: 10, offset: 0 })
    expect(log.items.map((entry) => [entry.action, entry.target, entry.detail])).toEqual([
      ['affiliate.update', `affiliate:${ann.id}`, 'ann@example.com: name, payoutMethod, wiseDetails'],
      ['affiliate.update', `affiliate:${ann.id}`, 'ann@example.com: name, status, payoutMethod, paypalEmail, wiseDetails, paymentDetails'],
      ['console.sign_in', null, null],
    ])
  })

  it('shows refused input again as typed, marks the field, and changes nothing', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com', name: 'Ann', referralCode: 'ANN1' })
    await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB1' })
    const agent = await signedInAgent(fixture)
    const form = formOf(await (await agent.get(`/admin/affiliates/${ann.id}`)).text())
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ email: 'not-an-email' }, 400, 'email'],
      [{ email: 'bob@example.com' }, 409, 'email'],
      [{ referralCode: 'BOB1' }, 409, 'referralCode'],
      [{ referralCode: 'a b' }, 400, 'referralCode'],
      [{ status: 'deleted' }, 400, 'status'],
      [{ payoutMethod: 'cheque' }, 400, 'payoutMethod'],
      [{ paypalEmail: 'paypal' }, 400, 'paypalEmail'],
      [{ wiseAccountId: 'acc-1', wiseEmail: 'nope' }, 400, 'wiseEmail'],
      [{ partnerSlug: 'no-such-program' }, 400, 'partnerSlug'],
      [{ name: 'x'.repeat(201) }, 400, 'name'],
    ]
    for (const [change, status, field] of cases) {
      const response = await agent.post(`/admin/affiliates/${ann.id}`, { ...form, name: 'Changed too', ...change })
      const page = await response.text()
      expect([change, response.status]).toEqual([change, status])
      expect(page).toMatch(/<p class="error" role="alert" id="edit-error">[^<]+<\/p><p>Nothing was changed.<\/p>/)
      expect(page).toMatch(new RegExp(`name="${field}"[^>]* aria-invalid="true"`))
      const [key, value] = Object.entries(change)[0]!
      if (key !== 'status' && key !== 'payoutMethod') expect(page).toContain(`value="${value}"`)
    }
    expect(await program.affiliates.get(ann.id)).toMatchObject({ name: 'Ann', email: 'ann@example.com', referralCode: 'ANN1', status: 'active', paypalEmail: null, wiseDetails: null })
    expect((await agent.post(`/admin/affiliates/${ann.id}`, { ...form, csrf: '', name: 'Forged' })).status).toBe(403)
    expect((await agent.post('/admin/affiliates/999', form)).status).toBe(404)
    expect((await agent.get('/admin/affiliates/999')).status).toBe(404)
    expect((await program.affiliates.get(ann.id)).name).toBe('Ann')
    expect((await fixture.storage.auditLog.list(program.projectId, { limit: 10, offset: 0 })).items.map((entry) => entry.action)).toEqual(['console.sign_in'])
  })
})

describe('admin console payout files', () => {
  /** Exact cents of a decimal amount. */
  const cents = (amount: string) => {
    const match = /^(\d+)\.(\d{2})$/.exec(amount)
    if (!match) throw new Error(`not an amount: ${amount}`)
    return BigInt(match[1]!) * 100n + BigInt(match[2]!)
  }

  /** Posts the payouts form for these affiliates with the amounts the page shows; answers the response. */
  async function exportFor(agent: Agent, format: string, owed: Array<{ id: number }>, program: AdminFixture['program']) {
    const csrf = await agent.csrfOf('/admin/payouts')
    const fields = new URLSearchParams({ csrf, format })
    for (const { id } of owed) {
      fields.append('affiliate', String(id))
      fields.append(`amount_${id}`, (await program.affiliates.get(id)).earnings.eligible)
    }
    return agent.request('/admin/payouts/export', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() })
  }

  it("exports a Wise batch in Wise's send-by-email columns, rows and total to the cent", async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture
    const ann = await owedAffiliate(program, 'ann@example.com', [49, 100.1], { name: 'Ann Lee' }) // 14.70 + 30.03
    await program.affiliates.update(ann.id, { payoutMethod: 'wise', wiseDetails: { accountId: 'acc-1', email: 'ann@wise.test' } })
    const bob = await owedAffiliate(program, 'bob@example.com', [99.99], { name: 'Bob, Jr.' }) // 30.00
    const cy = await owedAffiliate(program, 'cy@example.com', [0.05]) // 0.02, no name
    clock.advance({ days: 31 })
    const agent = await signedInAgent(fixture)
    const response = await exportFor(agent, 'wise', [ann, bob, cy], program)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="wise-payouts-2026-03-04.csv"')
    const csv = await response.text()
    expect(csv.endsWith('\r\n')).toBe(true)
    const lines = csv.split('\r\n').filter(Boolean)
    expect(lines).toEqual([
      'name,recipientEmail,paymentReference,receiverType,amountCurrency,amount,sourceCurrency,targetCurrency',
      'Ann Lee,ann@wise.test,Affiliate commissions 2026-03-04,PERSON,source,44.73,USD,USD',
      '"Bob, Jr.",bob@example.com,Affiliate commissions 2026-03-04,PERSON,source,30.00,USD,USD',
      'cy@example.com,cy@example.com,Affiliate commissions 2026-03-04,PERSON,source,0.02,USD,USD',
    ])
    const amounts = lines.slice(1).map((line) => line.split(',').at(-3)!)
    expect(amounts.reduce((sum, amount) => sum + cents(amount), 0n)).toBe(7475n)
    const [entry] = (await fixture.storage.auditLog.list(program.projectId, { limit: 1, offset: 0 })).items
    expect([entry!.action, entry!.target, entry!.detail]).toEqual(['payouts.export_wise', `affiliates:${ann.id},${bob.id},${cy.id}`, '3 rows, total 74.75 USD'])
    // Exporting records nothing paid.
    expect((await program.payouts.list()).total).toBe(0)
  })
})

describe('admin console payout files against formula injection', () => {
  it("quotes text cells starting with = + - @, tab or CR in both files, and leaves amounts numeric", async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture
    const ann = await owedAffiliate(program, '=ann@example.com', [49, 100.1], { name: '=HYPERLINK("http://evil.test","click")' }) // 44.73
    const bob = await owedAffiliate(program, '+bob@example.com', [99.99], { name: '-2+3', paypalEmail: '-bob@paypal.test' }) // 30.00
    const cy = await owedAffiliate(program, 'cy@example.com', [0.05], { name: '\tCy' }) // 0.02
    const dee = await owedAffiliate(program, 'dee@example.com', [10], { name: '@SUM(A1)' }) // 3.00
    await program.affiliates.update(dee.id, { wiseDetails: { accountId: 'a', email: '=dee@wise.test' } })
    clock.advance({ days: 31 })
    const agent = await signedInAgent(fixture)
    const exportAs = (format: string) => exportedPayoutFile(agent, program, [ann, bob, cy, dee], format)
    expect(await exportAs('paypal')).toEqual([
      `'=ann@example.com,44.73,USD,aff_${ann.id},Affiliate commissions 2026-03-04`,
      `'-bob@paypal.test,30.00,USD,aff_${bob.id},Affiliate commissions 2026-03-04`,
      `cy@example.com,0.02,USD,aff_${cy.id},Affiliate commissions 2026-03-04`,
      `dee@example.com,3.00,USD,aff_${dee.id},Affiliate commissions 2026-03-04`,
    ])
    expect((await exportAs('wise')).slice(1)).toEqual([
      `"'=HYPERLINK(""http://evil.test"",""click"")",'=ann@example.com,Affiliate commissions 2026-03-04,PERSON,source,44.73,USD,USD`,
      `'-2+3,'+bob@example.com,Affiliate commissions 2026-03-04,PERSON,source,30.00,USD,USD`,
      `'\tCy,cy@example.com,Affiliate commissions 2026-03-04,PERSON,source,0.02,USD,USD`,
      `'@SUM(A1),'=dee@wise.test,Affiliate commissions 2026-03-04,PERSON,source,3.00,USD,USD`,
    ])
  })
})
