// The application page in real Chromium (docs/onboarding.md): a visitor applies to a `review`
// sub-program with the program's own fields, is pending and cannot get a sign-in link; the owner
// approves it in the console's applications queue; the affiliate then signs in through the
// portal's emailed link (captured by onSignInRequested). An `open` sub-program signs the applicant
// in at once; a `closed` one is 404. axe-core on the form, its errors, the answer and the queue.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../src/adapters/memory/index.js'
import { createAdminConsole, type AdminConsole } from '../src/admin/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type TestClock } from '../src/index.js'
import { createPortal, type Portal, type SignInRequest } from '../src/portal/index.js'
import { launchBrowser, screenshot, seriousViolations } from './browser-helpers.js'
import { recordAllEvents, recordedEvents } from './conformance/helpers.js'

const COMMISSION = { purchase: { type: 'percentage' as const, rate: 30 } }

describe('application page in Chromium', () => {
  let program: AffiliateProgram
  let storage: ReturnType<typeof memoryStorage>
  let clock: TestClock
  let portal: Portal
  let admin: AdminConsole
  let server: Server
  let base: string
  let browser: Browser
  const links: SignInRequest[] = []
  let adminKey: string

  beforeAll(async () => {
    clock = testClock('2026-03-01T09:00:00Z')
    storage = memoryStorage()
    program = await createAffiliateProgram({
      storage,
      clock,
      settings: {
        currency: 'USD',
        commission: COMMISSION,
        subPrograms: { creators: { commission: COMMISSION, signup: 'review' }, friends: { commission: COMMISSION, signup: 'open' }, vip: { commission: COMMISSION, signup: 'closed' } },
      },
    })
    await recordAllEvents(program)
    adminKey = (await program.keys.create({ name: 'Owner', scopes: ['*'] })).key
    server = createServer((req, res) => (req.url?.startsWith('/admin') ? admin.node(req, res) : portal.node(req, res)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    portal = createPortal(program, {
      sessions: storage,
      publicUrl: base,
      onSignInRequested: (request) => void links.push(request),
      application: {
        termsUrl: 'https://example.com/partner-terms',
        fields: [
          { name: 'audience', label: 'Audience size', type: 'select', options: ['Under 1,000', '1,000 to 10,000', 'Over 10,000'], required: true },
          { name: 'channel_url', label: 'Main channel URL', type: 'url', required: true },
          { name: 'discloses', label: 'I disclose affiliate links to my audience', type: 'checkbox', required: true },
          { name: 'coupon_idea', label: 'Coupon code you would like', type: 'text' },
        ],
      },
    })
    admin = createAdminConsole(program, { sessions: storage, auditLog: storage, portal })
    browser = await launchBrowser()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  async function check(page: Page, name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, `apply-${name}`)
  }

  /** Fills every required field, the program's own included, and agrees to the terms. */
  async function fillForm(page: Page, name: string, email: string, audience: string, channel: string) {
    await page.getByLabel('Your name').fill(name)
    await page.getByLabel('Email address').fill(email)
    await page.getByLabel('Website or channel').fill(channel)
    await page.getByLabel('How will you promote us?').fill('Reviews and a pinned link under every video.')
    await page.getByLabel('Audience size').selectOption(audience)
    await page.getByLabel('Main channel URL').fill(channel)
    await page.getByLabel('I disclose affiliate links to my audience').check()
    await page.getByLabel('I agree to the program terms').check()
  }

  it('a visitor applies to a review group with custom fields; pending, it gets no sign-in link', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/portal/apply/creators`)
    await check(page, 'form')
    // Sent empty: every required field says what it needs, and nothing is created.
    clock.advance({ seconds: 10 })
    await page.getByRole('button', { name: 'Send my application' }).click()
    await page.getByText('Please correct the fields below.').waitFor()
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(8)
    await check(page, 'errors')
    expect((await program.affiliates.list()).total).toBe(0)

    await fillForm(page, 'Ann Creator', 'ann@example.com', '1,000 to 10,000', 'https://youtube.com/@ann')
    clock.advance({ seconds: 10 })
    await page.getByRole('button', { name: 'Send my application' }).click()
    await page.getByRole('heading', { name: 'Thank you for applying' }).waitFor()
    await check(page, 'thanks')

    const ann = await program.affiliates.get('ann@example.com')
    expect(ann).toMatchObject({ name: 'Ann Creator', status: 'pending', partnerSlug: 'creators' })
    expect(ann.application).toMatchObject({
      website: 'https://youtube.com/@ann',
      fields: { audience: '1,000 to 10,000', channel_url: 'https://youtube.com/@ann', discloses: true, coupon_idea: '' },
      termsAcceptedAt: '2026-03-01T09:00:20.000Z',
    })

    await page.goto(`${base}/portal/sign-in`)
    await page.getByLabel('Your email address').fill('ann@example.com')
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    await page.getByText('If this address belongs to an affiliate').waitFor()
    expect(links).toEqual([])
    await page.close()
  })

  it('the owner approves it in the console, and the affiliate signs in through the emailed link', async () => {
    const owner = await browser.newPage()
    await owner.goto(`${base}/admin/sign-in`)
    await owner.getByLabel('Admin API key').fill(adminKey)
    await owner.getByRole('button', { name: 'Sign in' }).click()
    await owner.waitForURL(`${base}/admin/`)
    await owner.getByRole('link', { name: 'Applications' }).click()
    const card = owner.locator('[data-application="ann@example.com"]')
    expect(await card.textContent()).toContain('https://youtube.com/@ann')
    expect(await card.textContent()).toContain('1,000 to 10,000')
    await check(owner, 'queue')
    await owner.getByRole('button', { name: 'Approve ann@example.com' }).click()
    await owner.getByText('ann@example.com is approved').waitFor()
    const ann = await program.affiliates.get('ann@example.com')
    expect(ann.status).toBe('active')
    // The affiliate's own page keeps the application and its decision.
    await owner.goto(`${base}/admin/affiliates/${ann.id}`)
    const application = owner.getByRole('region', { name: 'Application' })
    expect(await application.textContent()).toContain('channel_urlhttps://youtube.com/@ann')
    expect(await application.textContent()).toContain('2026-03-01 09:00')
    await check(owner, 'affiliate-application')
    await owner.close()

    const page = await browser.newPage()
    await page.goto(`${base}/portal/sign-in`)
    await page.getByLabel('Your email address').fill('ann@example.com')
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    await page.getByText('If this address belongs to an affiliate').waitFor()
    expect(links.map((link) => link.email)).toEqual(['ann@example.com'])
    await page.goto(links[0]!.link)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toBeTruthy()
    expect(await page.getByText('ann@example.com').or(page.getByText('Ann Creator')).first().isVisible()).toBe(true)
    await page.close()

    const events = await recordedEvents(storage, program)
    expect(events.map((event) => [event.type, (event.body.affiliate as { email: string }).email])).toEqual([
      ['affiliate.applied', 'ann@example.com'],
      ['affiliate.approved', 'ann@example.com'],
    ])
  })

  it('an open group signs the applicant in at once', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/portal/apply/friends`)
    await fillForm(page, 'Bob Friend', 'bob@example.com', 'Under 1,000', 'https://bob.example')
    clock.advance({ seconds: 10 })
    await page.getByRole('button', { name: 'Send my application' }).click()
    await page.waitForURL(`${base}/portal/`)
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true)
    expect(await program.affiliates.get('bob@example.com')).toMatchObject({ status: 'active', partnerSlug: 'friends' })
    await page.close()
  })

  it('a closed group, and a group that does not exist, are 404', async () => {
    const page = await browser.newPage()
    expect((await page.goto(`${base}/portal/apply/vip`))!.status()).toBe(404)
    expect((await page.goto(`${base}/portal/apply/nobody`))!.status()).toBe(404)
    expect((await page.goto(`${base}/portal/apply/${encodeURIComponent('../admin')}`))!.status()).toBe(404)
    expect((await page.goto(`${base}/portal/apply`))!.status()).toBe(200)
    await page.close()
  })
})
