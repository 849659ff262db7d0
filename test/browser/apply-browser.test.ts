// The application page in real Chromium (docs/onboarding.md), with mail over a real SMTP server
// (smtp-server, parsed with mailparser): a visitor applies to a `review` sub-program with the
// program's own fields, gets the "application received" mail, is pending and gets no sign-in link;
// the owner approves it in the console's applications queue; the applicant receives the approval
// mail and signs in through the one-time link in it. An `open` sub-program signs the applicant in
// at once (and mails the welcome); a `closed` one is 404. The form in English, German, French and
// Spanish (the browser's language), axe-core on every page: no serious or critical finding.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAdminConsole, type AdminConsole } from '../../src/admin/index.js'
import { createMailDispatcher, smtpMailer, type MailDispatcher } from '../../src/email/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type TestClock } from '../../src/index.js'
import { createPortal, type Portal } from '../../src/portal/index.js'
import { launchBrowser, screenshot, seriousViolations } from '../support/browser-helpers.js'
import { recordAllEvents, recordedEvents } from '../conformance/helpers.js'
import { startSmtp, type SmtpCatcher } from '../support/email/smtp.js'

const COMMISSION = { purchase: { type: 'percentage' as const, rate: 30 } }
const SECRET = 'apply-browser-mail-secret-0123456789abcdef'
const FIELDS = [
  { name: 'audience', label: 'Audience size', type: 'select' as const, options: ['Under 1,000', '1,000 to 10,000', 'Over 10,000'], required: true },
  { name: 'channel_url', label: 'Main channel URL', type: 'url' as const, required: true },
  { name: 'discloses', label: 'I disclose affiliate links to my audience', type: 'checkbox' as const, required: true },
  { name: 'coupon_idea', label: 'Coupon code you would like', type: 'text' as const },
]

describe('application page in Chromium', () => {
  let program: AffiliateProgram
  let storage: ReturnType<typeof memoryStorage>
  let clock: TestClock
  let portal: Portal
  let admin: AdminConsole
  let server: Server
  let base: string
  let browser: Browser
  let smtp: SmtpCatcher
  let mails: MailDispatcher
  let adminKey: string

  beforeAll(async () => {
    clock = testClock('2026-03-01T09:00:00Z')
    storage = memoryStorage()
    smtp = await startSmtp()
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
      // The "email me a link" form with no host code: the sign-in mail goes through the dispatcher.
      emailSignIn: true,
      mailSecret: SECRET,
      theme: { title: 'Acme Partners' },
      // Every page of this test comes from 127.0.0.1: room for its dozen submissions (apply-bots.test.ts tests the limit).
      limits: { applyPerClient: { limit: 50, windowSeconds: 3600 } },
      application: { termsUrl: 'https://example.com/partner-terms', fields: FIELDS },
    })
    mails = createMailDispatcher({
      storage,
      mailer: smtpMailer(smtp.url),
      from: 'Acme Partners <partners@acme.example>',
      portalUrl: `${base}/portal`,
      secret: SECRET,
      theme: { title: 'Acme Partners' },
      // Approval mails carry a one-time sign-in link the portal mints on its publicUrl.
      signInLinks: portal,
      clock,
    })
    // Mail is on from the dispatcher's first pass: every mailable event from now on is queued.
    await mails.dispatch()
    admin = createAdminConsole(program, { sessions: storage, auditLog: storage, portal, applicationFields: FIELDS })
    browser = await launchBrowser()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
    await smtp?.stop()
  })

  async function check(page: Page, name: string) {
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, `apply-${name}`)
  }

  /** The mails the SMTP server took since `from`, after one dispatcher pass: recipient, subject, the link in the text part. */
  async function delivered(from: number) {
    await mails.dispatch()
    return smtp.received.slice(from).map(({ to, mail }) => ({
      to,
      subject: mail.subject,
      link: /(http\S+\/portal\/sign-in\?token=\S+)/.exec(mail.text ?? '')?.[1] ?? null,
      text: mail.text ?? '',
      html: typeof mail.html === 'string' ? mail.html : '',
    }))
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

  it('a visitor applies to a review group with custom fields, is mailed that it is received; pending, it gets no sign-in link', async () => {
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
    expect(ann).toMatchObject({ name: 'Ann Creator', status: 'pending', partnerSlug: 'creators', locale: 'en' })
    expect(ann.application).toMatchObject({
      website: 'https://youtube.com/@ann',
      fields: { audience: '1,000 to 10,000', channel_url: 'https://youtube.com/@ann', discloses: true, coupon_idea: '' },
      termsAcceptedAt: '2026-03-01T09:00:20.000Z',
    })
    const received = await delivered(0)
    expect(received.map(({ to, subject, link }) => ({ to, subject, link }))).toEqual([{ to: ['ann@example.com'], subject: 'We received your application to Acme Partners', link: null }])

    // A pending applicant asking for a sign-in link is answered like anyone, and mailed nothing.
    await page.goto(`${base}/portal/sign-in`)
    await page.getByLabel('Your email address').fill('ann@example.com')
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    await page.getByText('If this address belongs to an affiliate').waitFor()
    expect(await delivered(1)).toEqual([])
    await page.close()
  })

  it('the owner approves it in the console; the applicant receives the approval mail and signs in through its link', async () => {
    const owner = await browser.newPage()
    await owner.goto(`${base}/admin/sign-in`)
    await owner.getByLabel('Admin API key').fill(adminKey)
    await owner.getByRole('button', { name: 'Sign in' }).click()
    await owner.waitForURL(`${base}/admin/`)
    await owner.getByRole('link', { name: 'Applications' }).click()
    const card = owner.locator('[data-application="ann@example.com"]')
    // Each answer under its field's label, as the applicant saw it, not under the field's name.
    expect(await card.textContent()).toContain('Main channel URLhttps://youtube.com/@ann')
    expect(await card.textContent()).toContain('Audience size1,000 to 10,000')
    expect(await card.textContent()).not.toContain('channel_url')
    await check(owner, 'queue')
    await owner.getByRole('button', { name: 'Approve ann@example.com' }).click()
    await owner.getByText('ann@example.com is approved').waitFor()
    const ann = await program.affiliates.get('ann@example.com')
    expect(ann.status).toBe('active')
    // The affiliate's own page keeps the application and its decision.
    await owner.goto(`${base}/admin/affiliates/${ann.id}`)
    const application = owner.getByRole('region', { name: 'Application' })
    expect(await application.textContent()).toContain('Main channel URLhttps://youtube.com/@ann')
    expect(await application.textContent()).toContain('2026-03-01 09:00')
    await check(owner, 'affiliate-application')
    await owner.close()

    const [approval, ...others] = await delivered(1)
    expect(others).toEqual([])
    expect(approval).toMatchObject({ to: ['ann@example.com'], subject: 'Welcome to Acme Partners: your application is approved' })
    expect(approval!.text).toContain('Hi Ann Creator,')
    // The link is on the portal's configured public URL, in both parts.
    expect(approval!.link).toMatch(new RegExp(`^${base.replace(/[.]/g, '\\.')}/portal/sign-in\\?token=[A-Za-z0-9_-]+$`))
    expect(approval!.html).toContain(`href="${approval!.link}"`)

    const page = await browser.newPage()
    await page.goto(approval!.link!)
    await check(page, 'approval-link')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/portal/`)
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true)
    expect(await page.getByText('Ann Creator').first().isVisible()).toBe(true)
    await page.close()

    // The link works once.
    const again = await browser.newPage()
    await again.goto(approval!.link!)
    await again.getByRole('button', { name: 'Sign in' }).click()
    await again.getByText('This sign-in link is not valid').waitFor()
    await again.close()

    const events = await recordedEvents(storage, program)
    expect(events.map((event) => [event.type, (event.body.affiliate as { email: string }).email])).toEqual([
      ['affiliate.applied', 'ann@example.com'],
      ['affiliate.approved', 'ann@example.com'],
    ])
  })

  it('an open group signs the applicant in at once, and the welcome mail’s link signs it in again later', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/portal/apply/friends`)
    await fillForm(page, 'Bob Friend', 'bob@example.com', 'Under 1,000', 'https://bob.example')
    clock.advance({ seconds: 10 })
    await page.getByRole('button', { name: 'Send my application' }).click()
    await page.waitForURL(`${base}/portal/`)
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true)
    expect(await program.affiliates.get('bob@example.com')).toMatchObject({ status: 'active', partnerSlug: 'friends' })
    await page.close()

    const from = smtp.received.length
    const [welcome, ...others] = await delivered(from)
    expect(others).toEqual([])
    expect(welcome).toMatchObject({ to: ['bob@example.com'], subject: 'Welcome to Acme Partners: your application is approved' })
    const later = await browser.newPage()
    await later.goto(welcome!.link!)
    await later.getByRole('button', { name: 'Sign in' }).click()
    await later.waitForURL(`${base}/portal/`)
    expect(await later.getByText('Bob Friend').first().isVisible()).toBe(true)
    await later.close()
  })

  it('a closed group, and a group that does not exist, are 404', async () => {
    const page = await browser.newPage()
    expect((await page.goto(`${base}/portal/apply/vip`))!.status()).toBe(404)
    expect((await page.goto(`${base}/portal/apply/nobody`))!.status()).toBe(404)
    expect((await page.goto(`${base}/portal/apply/${encodeURIComponent('../admin')}`))!.status()).toBe(404)
    expect((await page.goto(`${base}/portal/apply`))!.status()).toBe(200)
    await page.close()
  })

  const LANGUAGES = [
    { locale: 'en-US', lang: 'en', heading: 'Apply to become an affiliate: creators', submit: 'Send my application', summary: 'Please correct the fields below.', thanks: 'Thank you for applying', subject: 'We received your application to Acme Partners' },
    { locale: 'de-DE', lang: 'de', heading: 'Als Affiliate bewerben: creators', submit: 'Bewerbung senden', summary: 'Bitte korrigieren Sie die Felder unten.', thanks: 'Vielen Dank für Ihre Bewerbung', subject: 'Wir haben Ihre Bewerbung bei Acme Partners erhalten' },
    { locale: 'fr-FR', lang: 'fr', heading: 'Devenir affilié : creators', submit: 'Envoyer ma candidature', summary: 'Veuillez corriger les champs ci-dessous.', thanks: 'Merci pour votre candidature', subject: 'Nous avons reçu votre candidature à Acme Partners' },
    { locale: 'es-ES', lang: 'es', heading: 'Solicita ser afiliado: creators', submit: 'Enviar mi solicitud', summary: 'Corrige los campos de abajo.', thanks: 'Gracias por tu solicitud', subject: 'Hemos recibido tu solicitud para Acme Partners' },
  ]

  for (const language of LANGUAGES) {
    it(`the application page in ${language.lang} (browser language ${language.locale}): form, errors and answer, no serious axe finding; the applicant's mails follow`, async () => {
      const context = await browser.newContext({ locale: language.locale })
      const page = await context.newPage()
      await page.goto(`${base}/portal/apply/creators`)
      expect(await page.locator('html').getAttribute('lang')).toBe(language.lang)
      await page.getByRole('heading', { level: 1, name: language.heading }).waitFor()
      await check(page, `form-${language.lang}`)
      clock.advance({ seconds: 10 })
      await page.getByRole('button', { name: language.submit }).click()
      await page.getByText(language.summary).waitFor()
      expect(await page.locator('[aria-invalid="true"]').count()).toBe(8)
      await check(page, `errors-${language.lang}`)

      const email = `applicant-${language.lang}@example.com`
      await page.locator('#name').fill(`Applicant ${language.lang}`)
      await page.locator('#email').fill(email)
      await page.locator('#website').fill('https://example.org')
      await page.locator('#promotion').fill('Newsletter')
      await page.locator('#field_audience').selectOption('Over 10,000')
      await page.locator('#field_channel_url').fill('https://example.org/channel')
      await page.locator('#field_discloses').check()
      await page.locator('#terms').check()
      clock.advance({ seconds: 10 })
      await page.getByRole('button', { name: language.submit }).click()
      await page.getByRole('heading', { name: language.thanks }).waitFor()
      await check(page, `thanks-${language.lang}`)
      await context.close()

      expect((await program.affiliates.get(email)).locale).toBe(language.lang)
      const from = smtp.received.length
      const [received] = await delivered(from)
      expect(received).toMatchObject({ to: [email], subject: language.subject })
    })
  }
})
