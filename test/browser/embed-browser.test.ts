// The embedded dashboard in Chromium with third-party cookies blocked (docs/embed.md): a host page
// on localhost frames the dashboard served from 127.0.0.1 (two sites), gets its ready and resize
// messages and grows the frame; Ann's token shows Ann's link and the ledger's figures and nothing
// of Bob's; expired and blocked tokens show a clear page; a page on an origin not configured cannot
// frame it. The web component and the React component (built as the package builds them) show the
// same view. axe-core finds nothing serious in the four languages.
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { LOCALES } from '../../src/core/model/i18n/locales.js'
import { launchBrowser, screenshot, seriousViolations } from '../support/browser-helpers.js'
import { buildEmbed, type EmbedBuilds } from '../support/embed/embed-builds.js'
import { affiliateWithHistory, portalFixture, type PortalFixture } from '../support/portal/helpers.js'

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

const htmlPage = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host app</title></head><body><main>${body}</main></body></html>`)
}

/** The host page's own script: records the dashboard's messages and sizes the frame by them. */
const LISTENER = (dashboardOrigin: string) => `<script>
window.messages = [];
window.addEventListener('message', function (event) {
  if (event.origin !== ${JSON.stringify(dashboardOrigin)}) return;
  window.messages.push(event.data);
  if (event.data && event.data.type === 'affiliate-kit:resize') document.getElementById('dashboard').style.height = event.data.height + 'px';
});
</script>`

describe('embedded dashboard in Chromium, third-party cookies blocked', () => {
  let fixture: PortalFixture
  let browser: Browser
  let builds: EmbedBuilds
  const servers: Server[] = []
  let dashboardOrigin: string
  let hostOrigin: string
  let strangerOrigin: string
  let annId: number
  let issue: (email: string, ttlSeconds?: number) => Promise<string>

  beforeAll(async () => {
    builds = await buildEmbed()
    const dashboard = await listen((req, res) => handlers.dashboard(req, res))
    const host = await listen((req, res) => handlers.host(req, res))
    const stranger = await listen((req, res) => handlers.stranger(req, res))
    servers.push(dashboard.server, host.server, stranger.server)
    dashboardOrigin = `http://127.0.0.1:${dashboard.port}`
    hostOrigin = `http://localhost:${host.port}`
    strangerOrigin = `http://localhost:${stranger.port}`
    fixture = await portalFixture({ publicUrl: dashboardOrigin, embed: { allowedOrigins: [hostOrigin] } })
    const { program, clock, portal } = fixture
    annId = (await affiliateWithHistory(program, clock, 'ann@example.com', 'ANN')).affiliate.id
    await affiliateWithHistory(program, clock, 'bob@example.com', 'BOB')
    const key = (await program.keys.create({ scopes: ['affiliates:write'] })).key
    const api = createHandler(program, { portal, rateLimit: false })
    issue = async (email, ttlSeconds) => {
      const response = await fetch(`${dashboardOrigin}/api/v1/embed-tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, ...(ttlSeconds ? { ttl_seconds: ttlSeconds } : {}) }),
      })
      expect(response.status).toBe(201)
      return ((await response.json()) as { data: { token: string } }).data.token
    }
    const embedUrl = (token: string, extra = '') => `${dashboardOrigin}/portal/embed?token=${encodeURIComponent(token)}${extra}`
    const handlers = {
      dashboard: (req: IncomingMessage, res: ServerResponse) => ((req.url ?? '').startsWith('/api/') ? api.node(req, res) : portal.node(req, res)),
      host: (req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? '/', hostOrigin)
        const token = url.searchParams.get('token') ?? ''
        if (url.pathname === '/iframe') return htmlPage(res, `${LISTENER(dashboardOrigin)}<iframe id="dashboard" title="Referral dashboard" src="${embedUrl(token, url.searchParams.has('lang') ? `&lang=${url.searchParams.get('lang')}` : '')}" style="width:100%;border:0;height:100px"></iframe>`)
        if (url.pathname === '/component') {
          return htmlPage(
            res,
            `<script type="module">import { defineDashboardElement } from '/build/embed/index.js'; defineDashboardElement();</script>
<affiliate-kit-dashboard token="${token}" base-url="${dashboardOrigin}/portal" theme="light" style="--ak-primary: #b00020; --ak-radius: 2px"></affiliate-kit-dashboard>`,
          )
        }
        if (url.pathname === '/react') {
          const settings = { email: 'ann@example.com', baseUrl: `${dashboardOrigin}/portal`, appearance: { theme: 'dark', colors: { primary: '#ffb4ab' } }, lang: 'de' }
          return htmlPage(res, `<div id="root"></div><script type="application/json" id="settings">${JSON.stringify(settings)}</script><script type="module" src="/react-page.js"></script>`)
        }
        if (url.pathname === '/token') {
          // The host's server: its first answer is a token that is not valid, so the component fetches again.
          const first = url.searchParams.get('attempt') === '1'
          void (first ? Promise.resolve('ake_1.1.0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') : issue(url.searchParams.get('email')!)).then((value) => {
            res.writeHead(200, { 'content-type': 'application/json' })
            res.end(JSON.stringify({ token: value }))
          })
          return
        }
        if (url.pathname === '/react-page.js') {
          res.writeHead(200, { 'content-type': 'text/javascript' })
          return res.end(builds.reactPage)
        }
        if (url.pathname.startsWith('/build/')) {
          res.writeHead(200, { 'content-type': 'text/javascript' })
          return res.end(readFileSync(join(builds.dir, url.pathname.slice('/build/'.length))))
        }
        res.writeHead(404).end()
      },
      stranger: (req: IncomingMessage, res: ServerResponse) => {
        const token = new URL(req.url ?? '/', strangerOrigin).searchParams.get('token') ?? ''
        htmlPage(res, `<iframe id="dashboard" title="Referral dashboard" src="${embedUrl(token)}" style="width:100%;height:400px"></iframe>`)
      },
    }
    browser = await launchBrowser(['--test-third-party-cookie-phaseout'])
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  })

  const dashboardFrame = async (page: Page): Promise<Frame> => {
    await expect.poll(() => page.frames().some((frame) => frame.url().startsWith(`${dashboardOrigin}/portal/embed`)), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().startsWith(`${dashboardOrigin}/portal/embed`))!
    await frame.waitForSelector('h1')
    return frame
  }
  const figures = (frame: Frame) => frame.$$eval('[data-figure]', (nodes) => Object.fromEntries(nodes.map((node) => [node.getAttribute('data-figure'), node.getAttribute('data-amount')])))

  it("shows Ann's link and the ledger's figures in a cross-site frame, with no cookie, and grows the frame by its messages", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${hostOrigin}/iframe?token=${encodeURIComponent(await issue('ann@example.com'))}`)
    const frame = await dashboardFrame(page)
    // Third-party cookies are blocked here: the frame cannot keep one, where its site's own page can.
    expect(await frame.evaluate(() => ((document.cookie = 'probe=1; SameSite=None; Secure'), document.cookie))).toBe('')
    const firstParty = await browser.newPage()
    await firstParty.goto(`${dashboardOrigin}/portal/embed/assets/embed.js`)
    expect(await firstParty.evaluate(() => ((document.cookie = 'probe=1; SameSite=None; Secure'), document.cookie))).toBe('probe=1')
    await firstParty.close()
    expect(await frame.$eval('[data-referral-link]', (input) => (input as HTMLInputElement).value)).toBe(`${dashboardOrigin}/?ref=ANN`)
    const ledger = await fixture.program.ledger.affiliate(annId, fixture.clock.now())
    const payable = (await fixture.program.payouts.payable(annId)).payable
    expect(await figures(frame)).toEqual({ held: ledger.earnings.held, payable, paid: ledger.earnings.paid, unpaid: ledger.earnings.unpaid })
    expect(await frame.content()).not.toContain('BOB')
    await expect.poll(() => page.evaluate(() => (window as unknown as { messages: { type: string }[] }).messages.map((message) => message.type)), { timeout: 10_000 }).toContain('affiliate-kit:resize')
    const messages = await page.evaluate(() => (window as unknown as { messages: { type: string; height?: number }[] }).messages)
    expect(messages[0]!.type).toBe('affiliate-kit:ready')
    const contentHeight = await frame.evaluate(() => document.documentElement.scrollHeight)
    await expect.poll(() => page.$eval('#dashboard', (node) => (node as HTMLElement).getBoundingClientRect().height), { timeout: 10_000 }).toBe(contentHeight)
    expect(await context.cookies()).toEqual([])
    await screenshot(page, 'embed-iframe')
    await context.close()
  })

  it('shows a clear page for an expired token and for a blocked affiliate', async () => {
    const page = await browser.newPage()
    const short = await issue('ann@example.com', 60)
    fixture.clock.advance({ seconds: 61 })
    await page.goto(`${hostOrigin}/iframe?token=${encodeURIComponent(short)}`)
    const expired = await dashboardFrame(page)
    expect(await expired.$eval('[data-refusal]', (node) => node.textContent)).toContain('has expired')
    await expect.poll(() => page.evaluate(() => (window as unknown as { messages: { type: string; reason?: string }[] }).messages.find((m) => m.type === 'affiliate-kit:refused')?.reason)).toBe('expired')

    await fixture.program.affiliates.create({ email: 'eve@example.com', referralCode: 'EVE' })
    const eve = await issue('eve@example.com')
    await fixture.program.affiliates.update('eve@example.com', { status: 'blocked' })
    await page.goto(`${hostOrigin}/iframe?token=${encodeURIComponent(eve)}`)
    expect(await (await dashboardFrame(page)).$eval('[data-refusal]', (node) => node.textContent)).toBe('This affiliate account is closed.')
    await page.close()
  })

  it('cannot be framed by a page on an origin that is not configured', async () => {
    const page = await browser.newPage()
    const refusals: string[] = []
    page.on('console', (message) => refusals.push(message.text()))
    await page.goto(`${strangerOrigin}/?token=${encodeURIComponent(await issue('ann@example.com'))}`)
    await expect.poll(() => refusals.some((text) => text.includes('frame-ancestors')), { timeout: 10_000 }).toBe(true)
    for (const frame of page.frames().slice(1)) {
      const shown = await frame.content().catch(() => '')
      expect(shown).not.toContain('data-section')
    }
    await page.close()
  })

  it('shows the same view through the web component, in the host colours', async () => {
    const page = await browser.newPage()
    await page.goto(`${hostOrigin}/component?token=${encodeURIComponent(await issue('ann@example.com'))}`)
    const frame = await dashboardFrame(page)
    expect(await frame.$eval('[data-referral-link]', (input) => (input as HTMLInputElement).value)).toBe(`${dashboardOrigin}/?ref=ANN`)
    const ledger = await fixture.program.ledger.affiliate(annId, fixture.clock.now())
    expect((await figures(frame)).paid).toBe(ledger.earnings.paid)
    expect(await frame.$eval('button[type=submit]', (node) => getComputedStyle(node).backgroundColor)).toBe('rgb(176, 0, 32)')
    expect(await frame.$eval('.card', (node) => getComputedStyle(node).borderTopLeftRadius)).toBe('2px')
    const contentHeight = await frame.evaluate(() => document.documentElement.scrollHeight)
    await expect
      .poll(() => page.evaluate(() => document.querySelector('affiliate-kit-dashboard')!.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height), { timeout: 10_000 })
      .toBe(contentHeight)
    await screenshot(page, 'embed-web-component')
    await page.close()
  })

  it('shows the same view through the React component, fetching a new token when the first is refused', async () => {
    const page = await browser.newPage()
    await page.goto(`${hostOrigin}/react`)
    await expect.poll(() => page.evaluate(() => (window as unknown as { fetchedTokens: number }).fetchedTokens), { timeout: 15_000 }).toBe(2)
    await expect.poll(() => page.frames().find((frame) => frame.url().includes('/portal/embed'))?.$('[data-section="earnings"]').catch(() => null), { timeout: 15_000 }).toBeTruthy()
    const frame = page.frames().find((candidate) => candidate.url().includes('/portal/embed'))!
    expect(await frame.$eval('html', (node) => node.lang)).toBe('de')
    expect(await frame.$eval('[data-referral-link]', (input) => (input as HTMLInputElement).value)).toBe(`${dashboardOrigin}/?ref=ANN`)
    const ledger = await fixture.program.ledger.affiliate(annId, fixture.clock.now())
    expect((await figures(frame)).unpaid).toBe(ledger.earnings.unpaid)
    expect(await frame.$eval('button[type=submit]', (node) => getComputedStyle(node).backgroundColor)).toBe('rgb(255, 180, 171)')
    expect(await page.$eval('affiliate-kit-dashboard', (node) => node.shadowRoot!.querySelector('iframe')!.title)).toBe('Your referrals')
    await screenshot(page, 'embed-react')
    await page.close()
  })

  it('has nothing serious or critical for axe in the four languages, light and dark', async () => {
    const page = await browser.newPage()
    for (const lang of LOCALES) {
      for (const theme of ['light', 'dark']) {
        await page.goto(`${dashboardOrigin}/portal/embed?token=${encodeURIComponent(await issue('ann@example.com'))}&lang=${lang}&theme=${theme}`)
        expect(await page.$eval('html', (node) => node.lang)).toBe(lang)
        expect(await seriousViolations(page), `${lang} ${theme}`).toEqual([])
      }
    }
    await page.goto(`${dashboardOrigin}/portal/embed?token=nope&lang=de`)
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
