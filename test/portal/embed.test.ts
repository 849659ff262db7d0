// The embedded dashboard over plain fetch (docs/embed.md): a token from POST /api/v1/embed-tokens
// opens one affiliate's dashboard and nothing else, no cookie is set, only configured origins may
// frame it, its figures are the ledger's, and bad, expired or blocked tokens get a clear page.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { affiliateWithHistory, portalFixture } from '../support/portal/helpers.js'

const HOST = 'http://localhost:3000'
const OTHER_HOST = 'https://app.example.com'

async function embedded(limits?: { embedPerClient: { limit: number; windowSeconds: number } }) {
  const fixture = await portalFixture({ publicUrl: 'http://127.0.0.1:8787', embed: { allowedOrigins: [HOST, OTHER_HOST] }, ...(limits ? { limits } : {}) })
  const { program, clock, portal } = fixture
  const ann = await affiliateWithHistory(program, clock, 'ann@example.com', 'ANN')
  const bob = await affiliateWithHistory(program, clock, 'bob@example.com', 'BOB')
  const key = (await program.keys.create({ scopes: ['affiliates:write'] })).key
  const api = createHandler(program, { portal, rateLimit: false })
  const tokenFor = async (body: Record<string, unknown>) => {
    const response = await api(new Request('http://127.0.0.1:8787/api/v1/embed-tokens', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }))
    return { status: response.status, body: (await response.json()) as { data: { token: string; expires_at: string; url: string | null } } & { error?: { message: string } } }
  }
  const page = (path: string, init: RequestInit = {}, clientAddress = '203.0.113.7') => portal(new Request(new URL(path, 'http://127.0.0.1:8787'), { redirect: 'manual', ...init }), { clientAddress })
  return { ...fixture, ann, bob, api, key, tokenFor, page }
}

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search
const figureOf = (text: string, figure: string) => new RegExp(`data-figure="${figure}" data-amount="([^"]+)"`).exec(text)?.[1]

describe('embedded dashboard', () => {
  it('opens the dashboard of the affiliate the API token names, with the ledger figures, framable by the configured origins only and with no cookie', async () => {
    const { tokenFor, page, program, ann, bob, clock } = await embedded()
    const created = await tokenFor({ email: 'ann@example.com' })
    expect(created.status).toBe(201)
    expect(created.body.data.expires_at).toBe(new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + 3_600_000).toISOString())
    expect(created.body.data.url).toBe(`http://127.0.0.1:8787/portal/embed?token=${encodeURIComponent(created.body.data.token)}`)

    const response = await page(pathOf(created.body.data.url!))
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(response.headers.get('x-frame-options')).toBeNull()
    expect(response.headers.get('content-security-policy')).toContain(`frame-ancestors ${HOST} ${OTHER_HOST}`)
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    const text = await response.text()
    expect(text).toContain(`data-parent-origins="${HOST} ${OTHER_HOST}"`)
    expect(text).toContain('value="http://127.0.0.1:8787/?ref=ANN"')
    // The figures are the ledger's for the affiliate now, and the payable figure the payouts' own.
    const ledger = await program.ledger.affiliate(ann.affiliate.id, clock.now())
    expect(figureOf(text, 'held')).toBe(ledger.earnings.held)
    expect(figureOf(text, 'paid')).toBe(ledger.earnings.paid)
    expect(figureOf(text, 'unpaid')).toBe(ledger.earnings.unpaid)
    expect(figureOf(text, 'payable')).toBe((await program.payouts.payable(ann.affiliate.id)).payable)
    expect(ledger.earnings.paid).toBe('14.70')
    // Ann's conversions and payouts only.
    const annConversions = (await program.conversions.list({ affiliateId: ann.affiliate.id })).items.map((c) => String(c.id))
    const bobConversions = (await program.conversions.list({ affiliateId: bob.affiliate.id })).items.map((c) => String(c.id))
    const shown = [...text.matchAll(/data-conversion="(\d+)"/g)].map((match) => match[1])
    expect(shown.sort()).toEqual([...annConversions].sort())
    for (const id of bobConversions) expect(shown).not.toContain(id)
    expect(text).not.toContain('bob@example.com')
    expect(text).not.toContain('BOB')
    expect([...text.matchAll(/data-payout="(\d+)"/g)]).toHaveLength(1)
    // Each conversion's type in the page's language, a signup's too.
    await program.conversions.create({ type: 'signup', affiliateId: ann.affiliate.id, email: 'lead@example.com', reference: 'lead-1' })
    const german = await (await page(`${pathOf(created.body.data.url!)}&lang=de`)).text()
    expect(german).toContain('<td>Anmeldung</td>')
    expect(german).toContain('<td>Kauf</td>')
  })

  it('opens nothing else: not the portal, not the API, not another affiliate', async () => {
    const { tokenFor, page, api, bob } = await embedded()
    const { token } = (await tokenFor({ email: 'ann@example.com' })).body.data
    expect((await page('/portal/', { headers: { cookie: `ak_portal=${token}` } })).status).toBe(303)
    expect((await page(`/portal/sign-in?token=${encodeURIComponent(token)}`)).status).toBe(400)
    const asKey = await api(new Request('http://127.0.0.1:8787/api/v1/affiliates', { headers: { authorization: `Bearer ${token}` } }))
    expect(asKey.status).toBe(401)
    // Ann's token with Bob's id in it no longer carries a valid signature.
    const forged = token.replace(/^ake_\d+\./, `ake_${bob.affiliate.id}.`)
    const refused = await page(`/portal/embed?token=${encodeURIComponent(forged)}`)
    expect(refused.status).toBe(401)
    const text = await refused.text()
    expect(text).toContain('data-refusal="invalid"')
    expect(text).not.toContain('BOB')
  })

  it('shows a clear page for an expired token and for a blocked affiliate, in the browser language', async () => {
    const { tokenFor, page, clock, program, ann } = await embedded()
    const { token } = (await tokenFor({ email: 'ann@example.com', ttl_seconds: 60 })).body.data
    clock.advance({ seconds: 60 })
    const expired = await page(`/portal/embed?token=${encodeURIComponent(token)}`, { headers: { 'accept-language': 'de' } })
    expect(expired.status).toBe(401)
    const text = await expired.text()
    expect(text).toContain('lang="de"')
    expect(text).toContain('data-refusal="expired"')
    expect(text).toContain('Dieser Dashboard-Link ist abgelaufen')
    expect(text).not.toContain(token)

    const fresh = (await tokenFor({ email: 'ann@example.com' })).body.data.token
    await program.affiliates.update(ann.affiliate.id, { status: 'blocked' })
    const blocked = await page(`/portal/embed?token=${encodeURIComponent(fresh)}`)
    expect(blocked.status).toBe(403)
    expect(await blocked.text()).toContain('This affiliate account is closed.')
    const again = await tokenFor({ email: 'ann@example.com' })
    expect(again.status).toBe(409)
  })

  it('hides the sections the token or the page names, and speaks the language asked for', async () => {
    const { tokenFor, page, program, ann } = await embedded()
    const { token } = (await tokenFor({ email: 'ann@example.com', hide: ['payouts'] })).body.data
    const text = await (await page(`/portal/embed?token=${encodeURIComponent(token)}&hide=conversions&lang=fr`)).text()
    expect(text).toContain('lang="fr"')
    expect(text).toContain('Votre lien de parrainage')
    expect(text).not.toContain('data-section="payouts"')
    expect(text).not.toContain('data-section="settings"')
    expect(text).not.toContain('data-section="conversions"')
    expect(text).toContain('data-section="earnings"')
    // A hidden settings form cannot be posted to either.
    const posted = await page('/portal/embed', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, payout_method: 'paypal', paypal_email: 'ann@paypal.example' }) })
    expect(posted.status).toBe(400)
    expect((await program.affiliates.get(ann.affiliate.id)).paypalEmail).toBeNull()
    // The affiliate's own language when the page names none.
    await program.affiliates.update(ann.affiliate.id, { locale: 'es' })
    const spanish = await (await page(`/portal/embed?token=${encodeURIComponent(token)}`)).text()
    expect(spanish).toContain('Tu enlace de referido')
    expect((await page(`/portal/embed?token=${encodeURIComponent(token)}&hide=everything`)).status).toBe(400)
    expect((await page(`/portal/embed?token=${encodeURIComponent(token)}&lang=xx`)).status).toBe(400)
  })

  it('saves the payout settings through the form, keeping the token, and refuses a bad address with the reason', async () => {
    const { tokenFor, page, program, ann } = await embedded()
    const { token } = (await tokenFor({ email: 'ann@example.com' })).body.data
    const post = (fields: Record<string, string>) => page('/portal/embed', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })
    const saved = await post({ token, theme: 'dark', payout_method: 'paypal', paypal_email: 'ann@paypal.example', wise_email: '', payment_details: '' })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe(`/portal/embed?token=${encodeURIComponent(token)}&theme=dark&saved=1`)
    expect(await program.affiliates.get(ann.affiliate.id)).toMatchObject({ payoutMethod: 'paypal', paypalEmail: 'ann@paypal.example' })
    const shown = await (await page(saved.headers.get('location')!)).text()
    expect(shown).toContain('Your payout settings are saved.')

    const bad = await post({ token, payout_method: 'paypal', paypal_email: 'not an address' })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('PayPal email')
    const forged = await post({ token: 'ake_1.9999999999.0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', payout_method: 'manual', payment_details: 'IBAN of Eve' })
    expect(forged.status).toBe(401)
    expect(await program.affiliates.get(ann.affiliate.id)).toMatchObject({ payoutMethod: 'paypal', paymentDetails: null })
  })

  it('themes the page from the query, checked, and limits how often one client loads it', async () => {
    const { tokenFor, page } = await embedded({ embedPerClient: { limit: 3, windowSeconds: 300 } })
    const { token } = (await tokenFor({ email: 'ann@example.com' })).body.data
    const text = await (await page(`/portal/embed?token=${encodeURIComponent(token)}&theme=dark&primary=%23ff0000&radius=12px`)).text()
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(text)![1]!.replaceAll('&amp;', '&')
    const css = await (await page(stylesheet)).text()
    expect(css).toContain('--ak-primary: #ff0000;')
    expect(css).toContain('--ak-radius: 12px;')
    expect(css).toContain('--ak-background: #0b1220;')
    const bad = await page(`/portal/embed?token=${encodeURIComponent(token)}&primary=${encodeURIComponent('red;} body{display:none')}`)
    expect(bad.status).toBe(400)
    expect((await page('/portal/embed/assets/embed.css?radius=1e9px')).status).toBe(400)
    // Three loads per client in five minutes here: the fourth is refused, another client goes on.
    await page(`/portal/embed?token=${encodeURIComponent(token)}`)
    const limited = await page(`/portal/embed?token=${encodeURIComponent(token)}`)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.text()).toContain('Too many requests from your network')
    expect((await page(`/portal/embed?token=${encodeURIComponent(token)}`, {}, '198.51.100.9')).status).toBe(200)
  })
})
