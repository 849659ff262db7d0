// The portal's Links page (docs/links.md "In the portal"): the signed-in affiliate's own links with
// their short link, destination and UTM parameters, a form that creates one (a refusal shows the
// form again and writes nothing), delete, and the QR code downloaded as SVG or PNG; another
// affiliate's link is a 404; in the affiliate's language.
import { describe, expect, it } from 'vitest'
import { Agent, portalFixture } from '../support/portal/helpers.js'

const LINKS = { publicUrl: 'https://go.example', allowedOrigins: ['https://shop.example'] }

async function signedIn(links: typeof LINKS | null = LINKS, locale: 'en' | 'de' = 'en') {
  const fixture = await portalFixture({}, links ?? undefined)
  const email = 'ann@example.com'
  const ann = await fixture.program.affiliates.create({ email, referralCode: 'ann', locale })
  const bob = await fixture.program.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
  const agent = new Agent(fixture.portal)
  await agent.signIn((await fixture.portal.createSignInLink(email)).url)
  return { ...fixture, agent, ann, bob }
}

describe('portal links', () => {
  it("lists the affiliate's own links with short link, copy button, destination and UTM, and no one else's", async () => {
    const { agent, program, ann, bob } = await signedIn()
    await program.links.create({ affiliate: ann.id, key: 'ann-youtube', destination: 'https://shop.example/pricing', utmSource: 'youtube', utmCampaign: 'spring' })
    await program.links.create({ affiliate: bob.id, key: 'bob-blog' })
    const response = await agent.get('/portal/links')
    expect(response.status).toBe(200)
    const page = await response.text()
    expect(page).toContain('<a href="/portal/links" aria-current="page">Links</a>')
    expect(page).toContain('<code>ann-youtube</code>')
    expect(page).toContain('value="https://go.example/r/ann-youtube"')
    expect(page).toMatch(/<button type="button" data-copy="link-url-\d+" data-copied="Copied" data-copy-by-hand="Press Ctrl\+C to copy" hidden>Copy link<\/button>/)
    expect(page).toContain('https://shop.example/pricing')
    expect(page).toContain('<code>utm_source=youtube</code>')
    expect(page).toContain('<code>utm_campaign=spring</code>')
    expect(page).toMatch(/href="\/portal\/links\/\d+\/qr\?format=png" download>QR code \(PNG\)<span class="skip"> ann-youtube<\/span>/)
    expect(page).not.toContain('bob-blog')
  })

  it('creates a link from the form, a key made from the referral code when none is typed, and refuses a bad one writing nothing', async () => {
    const { agent, program, ann } = await signedIn()
    const csrf = await agent.csrfOf('/portal/links')
    const created = await agent.post('/portal/links', { csrf, key: 'ann-pod', destination: 'https://shop.example/episode-4', utm_campaign: 'podcast', utm_source: 'spotify', utm_medium: '' })
    expect([created.status, created.headers.get('location')]).toEqual([303, '/portal/links?created=1'])
    expect(await (await agent.get('/portal/links?created=1')).text()).toContain('Your link is created.')
    const [pod] = (await program.links.list({ affiliate: ann.id })).items
    expect(pod).toMatchObject({ key: 'ann-pod', destination: 'https://shop.example/episode-4', utmCampaign: 'podcast', utmSource: 'spotify', utmMedium: null, url: 'https://go.example/r/ann-pod' })
    expect((await agent.post('/portal/links', { csrf, key: '', destination: '', utm_campaign: '', utm_source: '', utm_medium: '' })).status).toBe(303)
    expect((await program.links.list({ affiliate: ann.id })).items[0]!.key).toMatch(/^ann-[a-z2-9]{4}$/)

    const elsewhere = await agent.post('/portal/links', { csrf, key: 'ann-evil', destination: 'https://evil.example/', utm_campaign: 'x', utm_source: '', utm_medium: '' })
    expect(elsewhere.status).toBe(400)
    const refused = await elsewhere.text()
    expect(refused).toContain('<p class="error" role="alert" id="link-error">Destination: https://evil.example is not an allowed origin (allowed: https://shop.example)</p>')
    // The form comes back as typed.
    expect(refused).toContain('value="ann-evil"')
    expect(refused).toContain('value="https://evil.example/"')
    const taken = await agent.post('/portal/links', { csrf, key: 'BOB', destination: '', utm_campaign: '', utm_source: '', utm_medium: '' })
    expect(taken.status).toBe(409)
    expect(await taken.text()).toContain("this key is an affiliate&#39;s referral code")
    const badKey = await agent.post('/portal/links', { csrf, key: 'no spaces', destination: '', utm_campaign: '', utm_source: '', utm_medium: '' })
    expect(badKey.status).toBe(400)
    expect(await badKey.text()).toContain('Key: must be 3 to 64 letters, digits, _ or -')
    expect((await program.links.list()).total).toBe(2)
    // Without the form's CSRF token nothing is created.
    expect((await agent.post('/portal/links', { key: 'ann-forged' })).status).toBe(403)
    expect((await program.links.list()).total).toBe(2)
  })

  it("deletes its own link, and answers 404 for another affiliate's, which stays", async () => {
    const { agent, program, ann, bob } = await signedIn()
    const own = await program.links.create({ affiliate: ann.id, key: 'ann-old' })
    const others = await program.links.create({ affiliate: bob.id, key: 'bob-blog' })
    const csrf = await agent.csrfOf('/portal/links')
    const deleted = await agent.post(`/portal/links/${own.id}/delete`, { csrf })
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/portal/links?deleted=1'])
    expect(await program.links.resolve('ann-old')).toBeNull()
    const refused = await agent.post(`/portal/links/${others.id}/delete`, { csrf })
    expect(refused.status).toBe(404)
    expect(await refused.text()).toContain('There is no such link.')
    expect((await program.links.get(others.id)).key).toBe('bob-blog')
    expect((await agent.post('/portal/links/999999/delete', { csrf })).status).toBe(404)
  })

  it("downloads the QR code of its own link as SVG or PNG, never another's", async () => {
    const { agent, program, ann, bob } = await signedIn()
    const own = await program.links.create({ affiliate: ann.id, key: 'ann-qr' })
    const others = await program.links.create({ affiliate: bob.id, key: 'bob-qr' })
    const svg = await agent.get(`/portal/links/${own.id}/qr?format=svg`)
    expect([svg.status, svg.headers.get('content-type'), svg.headers.get('content-disposition')]).toEqual([200, 'image/svg+xml', 'attachment; filename="ann-qr-qr.svg"'])
    expect(await svg.text()).toMatch(/^<svg [^>]*width="512" height="512"/)
    const png = await agent.get(`/portal/links/${own.id}/qr?format=png`)
    expect([png.headers.get('content-type'), png.headers.get('content-disposition')]).toEqual(['image/png', 'attachment; filename="ann-qr-qr.png"'])
    const bytes = new Uint8Array(await png.arrayBuffer())
    expect([...bytes.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe('PNG')
    expect(new DataView(bytes.buffer).getUint32(16)).toBe(512)
    expect((await agent.get(`/portal/links/${others.id}/qr?format=png`)).status).toBe(404)
    expect((await agent.get(`/portal/links/${own.id}/qr?format=gif`)).status).toBe(404)
  })

  it('offers no QR code for a link without a short link, and speaks the affiliate\'s language', async () => {
    const { agent, program, ann } = await signedIn(null, 'de')
    const link = await program.links.create({ affiliate: ann.id, key: 'ann-bare' })
    const page = await (await agent.get('/portal/links')).text()
    expect(page).toContain('<div lang="de">\n<h1>Links</h1>')
    expect(page).toContain('Kein Kurzlink eingerichtet')
    expect(page).toContain('Link erstellen')
    expect(page).not.toContain('/qr?format=')
    expect((await agent.get(`/portal/links/${link.id}/qr?format=svg`)).status).toBe(409)
  })
})
