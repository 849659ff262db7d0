// The console's links of an affiliate (docs/links.md "In the console"): its page lists them with
// their short link, destination and UTM parameters, creates one from a form (a refusal shows the
// form again as typed and creates nothing) and deletes one; each change is in the audit log.
import { describe, expect, it } from 'vitest'
import { adminFixture, signedInAgent } from '../support/admin/helpers.js'

async function withAffiliates() {
  const fixture = await adminFixture()
  const ann = await fixture.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
  const bob = await fixture.program.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
  return { ...fixture, ann, bob, agent: await signedInAgent(fixture) }
}

const auditTrail = async (fixture: Awaited<ReturnType<typeof withAffiliates>>) =>
  (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 10, offset: 0 })).items.map((entry) => [entry.action, entry.target, entry.detail])

describe('admin console: links', () => {
  it("lists the affiliate's links on its page, only its own", async () => {
    const fixture = await withAffiliates()
    await fixture.program.links.create({ affiliate: fixture.ann.id, key: 'ann-youtube', destination: 'https://shop.example/p', utmSource: 'youtube', utmCampaign: 'spring' })
    await fixture.program.links.create({ affiliate: fixture.bob.id, key: 'bob-blog' })
    const page = await (await fixture.agent.get(`/admin/affiliates/${fixture.ann.id}`)).text()
    expect(page).toContain('<h2 id="links-title">Links</h2>')
    expect(page).toMatch(/<tr data-link="ann-youtube"><td><code>ann-youtube<\/code><\/td>/)
    expect(page).toContain('https://shop.example/p')
    expect(page).toContain('utm_source=youtube utm_campaign=spring')
    // No public URL is configured for links here: there is no short link to show.
    expect(page).toContain('none configured')
    expect(page).not.toContain('bob-blog')
    expect(page).toContain(`action="/admin/affiliates/${fixture.ann.id}/links"`)
  })

  it('creates a link from the form and audits it; a refused one is shown again as typed and creates nothing', async () => {
    const fixture = await withAffiliates()
    const { agent, ann, program } = fixture
    const csrf = await agent.csrfOf(`/admin/affiliates/${ann.id}`)
    const created = await agent.post(`/admin/affiliates/${ann.id}/links`, { csrf, key: 'ann-pod', destination: 'https://shop.example/ep4', utm_campaign: 'podcast', utm_source: '', utm_medium: 'audio' })
    expect([created.status, created.headers.get('location')]).toEqual([303, `/admin/affiliates/${ann.id}?link_created=1#links`])
    const [link] = (await program.links.list({ affiliate: ann.id })).items
    expect(link).toMatchObject({ key: 'ann-pod', destination: 'https://shop.example/ep4', utmCampaign: 'podcast', utmSource: null, utmMedium: 'audio' })
    expect(await (await agent.get(`/admin/affiliates/${ann.id}?link_created=1`)).text()).toContain('The link is created.')
    expect((await auditTrail(fixture))[0]).toEqual(['link.create', `link:${link!.id}`, 'ann@example.com: ann-pod'])

    const taken = await agent.post(`/admin/affiliates/${ann.id}/links`, { csrf, key: 'BOB', destination: 'https://shop.example/x', utm_campaign: '', utm_source: '', utm_medium: '' })
    expect(taken.status).toBe(409)
    const page = await taken.text()
    expect(page).toContain('<p class="error" role="alert" id="link-error">this key is an affiliate&#39;s referral code</p>')
    expect(page).toContain('id="link-key" name="key" type="text" value="BOB" aria-invalid="true" aria-describedby="link-error"')
    expect(page).toContain('value="https://shop.example/x"')
    const bad = await agent.post(`/admin/affiliates/${ann.id}/links`, { csrf, key: '', destination: 'nope', utm_campaign: '', utm_source: '', utm_medium: '' })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('destination: must be an absolute http or https URL')
    expect((await program.links.list()).total).toBe(1)
    expect((await auditTrail(fixture)).filter(([action]) => String(action).startsWith('link.'))).toHaveLength(1)
  })

  it('deletes a link from the affiliate page and audits it', async () => {
    const fixture = await withAffiliates()
    const { agent, ann, program } = fixture
    const link = await program.links.create({ affiliate: ann.id, key: 'ann-old' })
    const csrf = await agent.csrfOf(`/admin/affiliates/${ann.id}`)
    const deleted = await agent.post(`/admin/links/${link.id}/delete`, { csrf })
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, `/admin/affiliates/${ann.id}?link_deleted=1#links`])
    expect(await program.links.resolve('ann-old')).toBeNull()
    expect((await auditTrail(fixture))[0]).toEqual(['link.delete', `link:${link.id}`, 'ann-old'])
    expect((await agent.post(`/admin/links/${link.id}/delete`, { csrf })).status).toBe(404)
    expect((await agent.post(`/admin/links/${link.id}/delete`, {})).status).toBe(403)
  })
})
