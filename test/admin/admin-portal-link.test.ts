// The console's ways to get affiliates going (docs/admin.md): a portal sign-in link from the
// affiliate's page, built from the portal's configured public URL only (never the request's
// host), refused with 409 when there is none; and a publishable key for the browser snippet.
import { describe, expect, it } from 'vitest'
import { createAdminConsole } from '../../src/admin/index.js'
import { createPortal } from '../../src/portal/index.js'
import { adminFixture, Agent, signInWithKey, type AdminFixture } from '../support/admin/helpers.js'

const PUBLIC_URL = 'https://partners.example.com'

/** The console with a portal of this public URL (none: no portal), signed in from a foreign host. */
async function consoleWith(fixture: AdminFixture, publicUrl: string | null | undefined) {
  const portal = publicUrl === undefined ? undefined : createPortal(fixture.program, { sessions: fixture.storage, ...(publicUrl ? { publicUrl } : {}) })
  const admin = createAdminConsole(fixture.program, { sessions: fixture.storage, auditLog: fixture.storage, ...(portal ? { portal } : {}) })
  const agent = new Agent(admin, 'http://evil.example')
  expect((await signInWithKey(agent, fixture.adminKey)).status).toBe(303)
  return { agent, portal }
}

describe('admin console: portal sign-in links', () => {
  it("makes a one-time link on the portal's public URL from the affiliate's page, and audits it without the secret", async () => {
    const fixture = await adminFixture()
    const ann = await fixture.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const { agent, portal } = await consoleWith(fixture, PUBLIC_URL)
    const page = await (await agent.get(`/admin/affiliates/${ann.id}`)).text()
    expect(page).toContain(`action="/admin/affiliates/${ann.id}/portal-link"`)
    expect(page).toContain('Create a sign-in link')

    const csrf = await agent.csrfOf(`/admin/affiliates/${ann.id}`)
    const answer = await agent.request(`/admin/affiliates/${ann.id}/portal-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-host': 'evil.example' },
      body: new URLSearchParams({ csrf }).toString(),
    })
    expect(answer.status).toBe(200)
    const text = await answer.text()
    const link = /value="([^"]+)" data-portal-link/.exec(text)![1]!
    expect(link).toMatch(/^https:\/\/partners\.example\.com\/portal\/sign-in\?token=[A-Za-z0-9_-]{20,}$/)
    expect(text).toContain('2026-02-01 00:15 UTC')
    expect(text).not.toContain('evil.example')

    const affiliate = new Agent(portal!)
    expect((await affiliate.signIn(link.slice(PUBLIC_URL.length))).status).toBe(303)
    expect(await (await affiliate.get('/portal/')).text()).toContain('ann@example.com')

    const entries = (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 10, offset: 0 })).items
    expect(entries[0]).toMatchObject({ action: 'affiliate.portal_link', target: `affiliate:${ann.id}`, detail: 'ann@example.com' })
    expect(JSON.stringify(entries)).not.toContain('token=')
  })

  it('shows no button and refuses with 409 without a portal, or with a portal without a public URL', async () => {
    for (const publicUrl of [undefined, null]) {
      const fixture = await adminFixture()
      const ann = await fixture.program.affiliates.create({ email: 'ann@example.com' })
      const { agent } = await consoleWith(fixture, publicUrl)
      const page = await (await agent.get(`/admin/affiliates/${ann.id}`)).text()
      expect(page).not.toContain('Create a sign-in link')
      expect(page).toMatch(publicUrl === null ? /No sign-in links: the affiliate portal has no public URL[^<]*portal\.publicUrl/ : /No sign-in links: there is no affiliate portal here[^<]*portal\.enabled/)
      const csrf = await agent.csrfOf(`/admin/affiliates/${ann.id}`)
      const refused = await agent.post(`/admin/affiliates/${ann.id}/portal-link`, { csrf })
      expect(refused.status).toBe(409)
      const text = await refused.text()
      expect(text).toMatch(publicUrl === null ? /no public URL/ : /no affiliate portal here/)
      expect(text).not.toContain('token=')
      const entries = (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 10, offset: 0 })).items
      expect(entries.map((entry) => entry.action)).toEqual(['console.sign_in'])
    }
  })

  it('answers 404 for an unknown affiliate and 400 for a blocked one', async () => {
    const fixture = await adminFixture()
    const ann = await fixture.program.affiliates.create({ email: 'ann@example.com', status: 'blocked' })
    const { agent } = await consoleWith(fixture, PUBLIC_URL)
    const csrf = await agent.csrfOf(`/admin/affiliates/${ann.id}`)
    expect((await agent.post(`/admin/affiliates/${ann.id + 1}/portal-link`, { csrf })).status).toBe(404)
    const blocked = await agent.post(`/admin/affiliates/${ann.id}/portal-link`, { csrf })
    expect(blocked.status).toBe(400)
    expect(await blocked.text()).toContain('blocked')
  })
})

describe('admin console: publishable keys', () => {
  it('creates an rgp_ key shown once, listed as publishable; it reports from the browser only and opens neither the API nor the console', async () => {
    const fixture = await adminFixture()
    const { agent } = await consoleWith(fixture, undefined)
    const keysPage = await (await agent.get('/admin/keys')).text()
    expect(keysPage).toContain('action="/admin/keys/publishable"')
    const csrf = await agent.csrfOf('/admin/keys')
    const created = await agent.post('/admin/keys/publishable', { csrf, name: 'website' })
    expect(created.status).toBe(200)
    const key = /value="(rgp_[A-Za-z0-9]+)" data-new-key/.exec(await created.text())![1]!
    expect(await fixture.program.verifyApiKey(key)).toMatchObject({ publishable: true, scopes: [] })
    const listed = await (await agent.get('/admin/keys')).text()
    expect(listed).toMatch(/<code>rgp_[A-Za-z0-9]{4}…<\/code><\/td><td>website<\/td><td>publishable \(browser snippet\)<\/td>/)
    expect(listed).not.toContain(key)
    expect((await signInWithKey(new Agent(fixture.admin), key)).status).toBe(401)
    const entries = (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 10, offset: 0 })).items
    // The refused sign-in above is recorded after it (console.sign_in_failed).
    expect(entries.find((entry) => entry.action === 'api_key.create')).toMatchObject({ detail: 'website: publishable' })

    const tooLong = await agent.post('/admin/keys/publishable', { csrf, name: 'x'.repeat(101) })
    expect(tooLong.status).toBe(400)
    expect((await fixture.program.keys.list()).filter((record) => record.prefix.startsWith('rgp_'))).toHaveLength(1)
  })
})
