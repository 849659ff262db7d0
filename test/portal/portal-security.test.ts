// The portal's security properties over plain fetch: one-time, expiring sign-in links; sessions
// that cannot be forged, borrowed across affiliates or used after sign-out; CSRF on every POST;
// no way to read another affiliate's records; bad input is a clear 4xx, never a 500.
import { describe, expect, it } from 'vitest'
import { Agent, affiliateWithHistory, portalFixture } from '../support/portal/helpers.js'

async function signedIn() {
  const fixture = await portalFixture()
  const ann = await affiliateWithHistory(fixture.program, fixture.clock, 'ann@example.com', 'ANN')
  const bob = await affiliateWithHistory(fixture.program, fixture.clock, 'bob@example.com', 'BOB')
  const agent = new Agent(fixture.portal)
  const { url } = await fixture.portal.createSignInLink('ann@example.com')
  const response = await agent.signIn(url)
  expect(response.status).toBe(303)
  return { ...fixture, ann, bob, agent }
}

describe('portal sign-in links', () => {
  it('signs in once through a created link, with an HttpOnly SameSite=Lax session cookie', async () => {
    const { portal, program } = await portalFixture()
    await program.affiliates.create({ email: 'ann@example.com' })
    const { url, expiresAt } = await portal.createSignInLink('ann@example.com')
    expect(url).toMatch(/^\/portal\/sign-in\?token=[A-Za-z0-9_-]{43}$/)
    expect(expiresAt.toISOString()).toBe('2026-02-01T00:15:00.000Z')
    const agent = new Agent(portal)
    const opened = await agent.get(url)
    expect(opened.status).toBe(200) // opening the link alone does not use it up (mail scanners fetch links)
    const csrf = /name="csrf" value="([^"]+)"/.exec(await opened.text())![1]!
    const token = new URL(url, 'http://x').searchParams.get('token')!
    const confirmed = await agent.post('/portal/sign-in', { csrf, token })
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('location')).toBe('/portal/')
    const cookie = confirmed.headers.getSetCookie().find((line) => line.startsWith('ak_portal='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\/portal/)
    expect(cookie).not.toMatch(/Secure/) // plain http in this test; https below
    const overview = await agent.get('/portal/')
    expect(overview.status).toBe(200)
    expect(await overview.text()).toContain('ann@example.com')

    const again = new Agent(portal)
    const reused = await again.signIn(url)
    expect(reused.status).toBe(400)
    expect(await reused.text()).toContain('not valid')
    expect(again.cookies.has('ak_portal')).toBe(false)
  })

  it('refuses an expired link without saying whose it was', async () => {
    const { portal, program, clock } = await portalFixture()
    await program.affiliates.create({ email: 'ann@example.com' })
    const { url } = await portal.createSignInLink('ann@example.com')
    clock.advance({ minutes: 15 })
    const agent = new Agent(portal)
    const response = await agent.signIn(url)
    expect(response.status).toBe(400)
    const text = await response.text()
    expect(text).toContain('not valid')
    expect(text).not.toContain('ann@example.com')
    expect(agent.cookies.has('ak_portal')).toBe(false)
  })

  it('refuses a made-up token and a malformed one', async () => {
    const { portal } = await portalFixture()
    const agent = new Agent(portal)
    expect((await agent.signIn(`/portal/sign-in?token=${'x'.repeat(43)}`)).status).toBe(400)
    expect((await agent.get('/portal/sign-in?token=%3Cscript%3E')).status).toBe(400)
  })

  it('keeps the link valid when the confirmation lacks its CSRF token (a forged form uses nothing up)', async () => {
    const { portal, program } = await portalFixture()
    await program.affiliates.create({ email: 'ann@example.com' })
    const { url } = await portal.createSignInLink('ann@example.com')
    const token = new URL(url, 'http://x').searchParams.get('token')!
    const attacker = new Agent(portal)
    await attacker.get(url)
    expect((await attacker.post('/portal/sign-in', { token })).status).toBe(403)
    expect(attacker.cookies.has('ak_portal')).toBe(false)
    expect((await new Agent(portal).signIn(url)).status).toBe(303)
  })

  it('makes no link for an unknown or blocked affiliate', async () => {
    const { portal, program } = await portalFixture()
    await program.affiliates.create({ email: 'blocked@example.com', status: 'blocked' })
    await expect(portal.createSignInLink('nobody@example.com')).rejects.toThrow(/not found/)
    await expect(portal.createSignInLink('blocked@example.com')).rejects.toThrow(/blocked/)
  })

  it('marks cookies Secure on https', async () => {
    const { portal, program } = await portalFixture()
    await program.affiliates.create({ email: 'ann@example.com' })
    const { url } = await portal.createSignInLink('ann@example.com')
    const agent = new Agent(portal, 'https://portal.test')
    const response = await agent.signIn(url)
    expect(response.headers.getSetCookie().find((line) => line.startsWith('ak_portal='))).toMatch(/; Secure/)
  })
})

describe('the referral link the overview shows', () => {
  const shown = async (options: Parameters<typeof portalFixture>[0]) => {
    const { portal, program } = await portalFixture(options)
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const agent = new Agent(portal, 'http://evil.example')
    await agent.signIn((await portal.createSignInLink('ann@example.com')).url)
    const page = await (await agent.request('/portal/', { headers: { 'x-forwarded-host': 'evil.example' } })).text()
    return { page, link: /id="referral-link" type="text" readonly value="([^"]*)"/.exec(page)?.[1] ?? null }
  }

  it('is built from publicUrl, never from the host the request names', async () => {
    expect((await shown({ publicUrl: 'https://app.example' })).link).toBe('https://app.example/?ref=ANN')
  })

  it('is left out without publicUrl or referralLink: the code alone is shown', async () => {
    const { page, link } = await shown({})
    expect(link).toBeNull()
    expect(page).not.toContain('evil.example')
    expect(page).toContain('data-figure="referral-code">ANN<')
  })
})

describe('portal sessions', () => {
  it('sends a forged session to the sign-in page and changes nothing with it', async () => {
    const { portal, program } = await portalFixture()
    await program.affiliates.create({ email: 'ann@example.com' })
    const forger = new Agent(portal)
    forger.cookies.set('ak_portal', 'A'.repeat(43))
    const page = await forger.get('/portal/')
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/portal/sign-in?ended=1')
    forger.cookies.set('ak_portal', 'A'.repeat(43))
    const post = await forger.post('/portal/settings', { csrf: 'x', payout_method: 'paypal', paypal_email: 'thief@example.com' })
    expect(post.status).toBe(401)
    expect((await program.affiliates.get('ann@example.com')).paypalEmail).toBeNull()
  })

  it("shows only the signed-in affiliate's records: another's conversion id answers like a missing one", async () => {
    const { agent, bob, ann } = await signedIn()
    const own = await agent.get(`/portal/conversions/${ann.partialId}`)
    expect(own.status).toBe(200)
    const theirs = await agent.get(`/portal/conversions/${bob.partialId}`)
    const missing = await agent.get('/portal/conversions/999999')
    expect(theirs.status).toBe(404)
    expect(missing.status).toBe(404)
    const [theirText, missingText] = [await theirs.text(), await missing.text()]
    expect(theirText).toBe(missingText)
    expect(theirText).not.toContain('bob@example.com')
    expect(theirText).not.toContain('BOB')
    const list = await (await agent.get('/portal/conversions')).text()
    expect(list).not.toContain(`/portal/conversions/${bob.partialId}"`)
    const payouts = await (await agent.get('/portal/payouts')).text()
    expect(payouts.match(/data-payout=/g)).toHaveLength(1)
  })

  it("cannot use one affiliate's CSRF token with another's session", async () => {
    const { agent, portal, program } = await signedIn()
    const bobAgent = new Agent(portal)
    await bobAgent.signIn((await portal.createSignInLink('bob@example.com')).url)
    const annToken = await agent.csrfOf('/portal/settings')
    const response = await bobAgent.post('/portal/settings', { csrf: annToken, payout_method: 'paypal', paypal_email: 'x@example.com' })
    expect(response.status).toBe(403)
    expect((await program.affiliates.get('bob@example.com')).paypalEmail).toBeNull()
  })

  it('refuses a settings POST without its CSRF token and changes nothing', async () => {
    const { agent, program } = await signedIn()
    const response = await agent.post('/portal/settings', { payout_method: 'paypal', paypal_email: 'evil@example.com' })
    expect(response.status).toBe(403)
    expect(await response.text()).toContain('expired')
    const ann = await program.affiliates.get('ann@example.com')
    expect([ann.payoutMethod, ann.paypalEmail]).toEqual([null, null])
  })

  it('refuses a sign-out POST without its CSRF token (the session stays)', async () => {
    const { agent } = await signedIn()
    expect((await agent.post('/portal/sign-out', {})).status).toBe(403)
    expect((await agent.get('/portal/')).status).toBe(200)
  })

  it('ends the session server-side at sign-out: the old cookie opens nothing', async () => {
    const { agent } = await signedIn()
    const stolen = agent.cookies.get('ak_portal')!
    const csrf = await agent.csrfOf('/portal/')
    const out = await agent.post('/portal/sign-out', { csrf })
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/portal/sign-in?signed_out=1')
    expect(agent.cookies.has('ak_portal')).toBe(false)
    agent.cookies.set('ak_portal', stolen)
    expect((await agent.get('/portal/')).status).toBe(303)
  })

  it('ends a session after an hour unused, and after twelve hours in any case', async () => {
    const { agent, clock } = await signedIn()
    clock.advance({ minutes: 59 })
    expect((await agent.get('/portal/')).status).toBe(200)
    clock.advance({ minutes: 61 })
    expect((await agent.get('/portal/')).status).toBe(303)

    const second = await signedIn()
    for (let hour = 0; hour < 11; hour += 1) {
      second.clock.advance({ minutes: 59 })
      expect((await second.agent.get('/portal/payouts')).status).toBe(200)
    }
    second.clock.advance({ minutes: 60 })
    expect((await second.agent.get('/portal/payouts')).status).toBe(303)
  })

  it('ends the sessions of an affiliate who gets blocked, and of signOutEverywhere', async () => {
    const { agent, program, portal } = await signedIn()
    await program.affiliates.update('ann@example.com', { status: 'blocked' })
    expect((await agent.get('/portal/')).status).toBe(303)
    const bob = new Agent(portal)
    await bob.signIn((await portal.createSignInLink('bob@example.com')).url)
    expect(await portal.signOutEverywhere('bob@example.com')).toBe(1)
    expect((await bob.get('/portal/')).status).toBe(303)
  })
})

describe('portal pages and input', () => {
  it('sends strict security headers and no inline script or style', async () => {
    const { agent } = await signedIn()
    for (const path of ['/portal/', '/portal/conversions', '/portal/payouts', '/portal/settings', '/portal/sign-in']) {
      const response = await agent.get(path)
      expect(response.status).toBe(200)
      const csp = response.headers.get('content-security-policy')!
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("style-src 'self'")
      expect(csp).toContain("frame-ancestors 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      expect(response.headers.get('cache-control')).toBe('no-store')
      const text = await response.text()
      expect(text).not.toMatch(/<script(?![^>]*\bsrc=)/)
      expect(text).not.toMatch(/\sstyle=|<style/)
      expect(text).not.toMatch(/\son[a-z]+=/)
    }
  })

  it('escapes what affiliates and the host stored', async () => {
    const { portal, program } = await portalFixture()
    await program.affiliates.create({ email: 'eve@example.com', name: '<img src=x onerror=alert(1)>', paymentDetails: '</textarea><script>alert(1)</script>' })
    const agent = new Agent(portal)
    await agent.signIn((await portal.createSignInLink('eve@example.com')).url)
    const settings = await (await agent.get('/portal/settings')).text()
    expect(settings).not.toContain('<script>alert')
    expect(settings).not.toContain('<img src=x')
    expect(settings).toContain('&lt;/textarea&gt;&lt;script&gt;')
  })

  it('answers bad input with a 4xx page, never a 500', async () => {
    const { agent, program } = await signedIn()
    const csrf = await agent.csrfOf('/portal/settings')
    const cases: Array<[Promise<Response>, number]> = [
      [agent.get('/portal/conversions?page=abc'), 400],
      [agent.get('/portal/conversions?page=0'), 400],
      [agent.get('/portal/payouts?page=99999999999'), 400],
      [agent.get('/portal/conversions/abc'), 404],
      [agent.get('/portal/conversions/1e3'), 404],
      [agent.get('/portal/conversions/99999999999999999999'), 404],
      [agent.get('/portal/nowhere'), 404],
      [agent.get('/portalx'), 404],
      [agent.request('/portal/settings', { method: 'DELETE' }), 405],
      [agent.request('/portal/settings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 415],
      [agent.post('/portal/settings', { csrf, payment_details: 'x'.repeat(20_000) }), 413],
      [agent.post('/portal/settings', { csrf, payout_method: 'bitcoin' }), 400],
      [agent.post('/portal/settings', { csrf, payout_method: 'paypal', paypal_email: 'not an email' }), 400],
      [agent.post('/portal/settings', { csrf, payout_method: 'wise', wise_email: 'not a wise email' }), 400],
      [agent.post('/portal/settings', { csrf, payment_details: 'y'.repeat(2001) }), 400],
    ]
    for (const [pending, status] of cases) expect((await pending).status).toBe(status)
    const ann = await program.affiliates.get('ann@example.com')
    expect([ann.payoutMethod, ann.paypalEmail, ann.wiseDetails, ann.paymentDetails]).toEqual([null, null, null, null])
    const bad = await (await agent.post('/portal/settings', { csrf, payout_method: 'paypal', paypal_email: 'not an email' })).text()
    expect(bad).toContain('PayPal email')
    expect(bad).toContain('value="not an email"') // the form keeps what was typed
    const badWise = await (await agent.post('/portal/settings', { csrf, payout_method: 'wise', wise_email: 'not a wise email' })).text()
    expect(badWise).toMatch(/role="alert"[^>]*>Wise email: /)
    expect(badWise).toContain('value="not a wise email"')
  })

  it('saves payout settings and shows them', async () => {
    const { agent, program } = await signedIn()
    const csrf = await agent.csrfOf('/portal/settings')
    const saved = await agent.post('/portal/settings', { csrf, payout_method: 'paypal', paypal_email: 'ann.pay@example.com', payment_details: 'IBAN DE00' })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe('/portal/settings?saved=1')
    const ann = await program.affiliates.get('ann@example.com')
    expect([ann.payoutMethod, ann.paypalEmail, ann.paymentDetails]).toEqual(['paypal', 'ann.pay@example.com', 'IBAN DE00'])
    expect(await (await agent.get('/portal/settings?saved=1')).text()).toContain('are saved')
  })

  it('saves a Wise email with the Wise payout method, keeps the account id the owner entered, and clears it when emptied', async () => {
    const { agent, program } = await signedIn()
    const ann = await program.affiliates.get('ann@example.com')
    await program.affiliates.update(ann.id, { wiseDetails: { accountId: 'wise-acct-7', email: 'old.wise@example.com' } })
    const form = await (await agent.get('/portal/settings')).text()
    expect(form).toMatch(/<label for="wise-email">Wise email<\/label>\s*<input id="wise-email" name="wise_email" type="email"[^>]* value="old.wise@example.com"/)
    const csrf = await agent.csrfOf('/portal/settings')
    expect((await agent.post('/portal/settings', { csrf, payout_method: 'wise', wise_email: 'Ann.Wise@Example.com' })).status).toBe(303)
    const saved = await program.affiliates.get('ann@example.com')
    expect([saved.payoutMethod, saved.wiseDetails]).toEqual(['wise', { accountId: 'wise-acct-7', email: 'ann.wise@example.com' }])
    expect((await agent.post('/portal/settings', { csrf, payout_method: 'wise', wise_email: '' })).status).toBe(303)
    expect((await program.affiliates.get('ann@example.com')).wiseDetails).toBeNull()
  })
})

describe('portal sign-in by email', () => {
  it('sends a link to known affiliates and answers the same for anyone else', async () => {
    const sent: Array<{ email: string; link: string }> = []
    const { portal, program } = await portalFixture({ publicUrl: 'https://app.example.com', onSignInRequested: (request) => void sent.push(request) })
    await program.affiliates.create({ email: 'ann@example.com' })
    const agent = new Agent(portal)
    const csrf = await agent.csrfOf('/portal/sign-in')
    const known = await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })
    const unknown = await agent.post('/portal/sign-in/email', { csrf, email: 'nobody@example.com' })
    const malformed = await agent.post('/portal/sign-in/email', { csrf, email: 'nonsense' })
    expect([known.status, unknown.status, malformed.status]).toEqual([200, 200, 200])
    const strip = (text: string) => text.replace(/name="csrf" value="[^"]+"/, '')
    expect(strip(await unknown.text())).toBe(strip(await known.text()))
    expect(sent.map((request) => request.email)).toEqual(['ann@example.com'])
    expect(sent[0]!.link).toMatch(/^https:\/\/app\.example\.com\/portal\/sign-in\?token=/)
    expect((await agent.post('/portal/sign-in/email', { email: 'ann@example.com' })).status).toBe(403)
    expect(sent).toHaveLength(1)
    const path = new URL(sent[0]!.link).pathname + new URL(sent[0]!.link).search
    expect((await new Agent(portal).signIn(path)).status).toBe(303)
  })

  it('has no email form unless the host handles the sending', async () => {
    const { portal } = await portalFixture()
    const agent = new Agent(portal)
    expect(await (await agent.get('/portal/sign-in')).text()).not.toContain('Email me')
    expect((await agent.post('/portal/sign-in/email', { email: 'a@example.com' })).status).toBe(404)
  })
})
