// The portal and the mails together (docs/email.md): the "email me a link" form with no host code
// sends a sign-in mail over SMTP in the browser's language whose link signs in; the one-click
// unsubscribe link of a mail (RFC 8058 POST, no cookie) turns the topic off; the settings page
// changes the language and the preferences the next mails follow.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMailDispatcher, smtpMailer, type MailDispatcher } from '../../src/email/index.js'
import { Agent, ORIGIN, portalFixture, type PortalFixture } from '../support/portal/helpers.js'
import { startSmtp, type SmtpCatcher } from '../support/email/smtp.js'

const SECRET = 'portal-mail-secret-0123456789abcdefghijklm'

let smtp: SmtpCatcher
let fixture: PortalFixture
let mails: MailDispatcher

beforeEach(async () => {
  smtp = await startSmtp()
  fixture = await portalFixture({ publicUrl: ORIGIN, emailSignIn: true, mailSecret: SECRET, theme: { title: 'Acme Partners' } })
  mails = createMailDispatcher({
    storage: fixture.storage,
    mailer: smtpMailer(smtp.url),
    from: 'Acme Partners <partners@acme.example>',
    portalUrl: `${ORIGIN}/portal`,
    secret: SECRET,
    theme: { title: 'Acme Partners' },
    clock: fixture.clock,
  })
  await fixture.storage.mail.enable(fixture.clock.now())
})

afterEach(async () => {
  await smtp.stop()
  await fixture.program.close()
})

const plain = (text: string | false | undefined) => String(text ?? '').replace(/[\u00a0\u202f]/g, ' ')

describe('the portal with mail', () => {
  it('the email form sends a sign-in mail in the browser language (no host code) and its link signs in', async () => {
    await fixture.program.affiliates.create({ email: 'ann@example.com', name: 'Ann' })
    const agent = new Agent(fixture.portal)
    const csrf = await agent.csrfOf('/portal/sign-in')
    const answer = await agent.request('/portal/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' },
      body: new URLSearchParams({ csrf, email: 'ann@example.com' }).toString(),
    })
    expect(answer.status).toBe(200)
    expect(await mails.dispatch()).toBe(1)
    const { mail, to } = smtp.received[0]!
    expect(to).toEqual(['ann@example.com'])
    expect(mail.subject).toBe('Votre lien de connexion à Acme Partners')
    const link = /Se connecter: (\S+)/.exec(mail.text ?? '')?.[1]
    expect(link).toMatch(/^http:\/\/portal\.test\/portal\/sign-in\?token=/)
    expect(mail.html).toContain(`href="${link}"`)
    const signedIn = await new Agent(fixture.portal).signIn(link!)
    expect(signedIn.status).toBe(303)
  })

  it('an approval mail carries a one-time sign-in link minted on the portal’s publicUrl (no request involved); without signInLinks, or for an affiliate blocked since, the portal’s overview', async () => {
    const { program } = fixture
    const withLinks = createMailDispatcher({ storage: fixture.storage, mailer: smtpMailer(smtp.url), from: 'partners@acme.example', portalUrl: `${ORIGIN}/portal`, signInLinks: fixture.portal, clock: fixture.clock })
    const applicant = (email: string) => program.applications.apply({ email, name: 'Ann', signup: 'review' })
    await applicant('ann@example.com')
    await applicant('bob@example.com')
    await applicant('cy@example.com')
    await program.applications.approve('ann@example.com')
    await withLinks.dispatch()
    const approval = smtp.received.find(({ to, mail }) => to[0] === 'ann@example.com' && mail.subject?.startsWith('Welcome'))!
    const link = /(\S+\/sign-in\?token=\S+)/.exec(approval.mail.text ?? '')![1]!
    expect(link.startsWith(`${ORIGIN}/portal/sign-in?token=`)).toBe(true)
    // The mail says the link works once and until when (the portal's 15 minutes, in the project's time zone).
    expect(plain(approval.mail.text)).toContain('The button signs you in once, until February 1, 2026 at 12:15 AM.')
    expect((await new Agent(fixture.portal).signIn(link)).status).toBe(303)
    // Once only.
    expect((await new Agent(fixture.portal).signIn(link)).status).not.toBe(303)

    // The dispatcher without a portal: the button opens the portal, where the affiliate asks for a link.
    await program.applications.approve('bob@example.com')
    await mails.dispatch()
    const plainApproval = smtp.received.find(({ to, mail }) => to[0] === 'bob@example.com' && mail.subject?.startsWith('Welcome'))!
    expect(plainApproval.mail.text).not.toContain('token=')
    expect(plainApproval.mail.text).not.toContain('signs you in once')
    expect(plainApproval.mail.text).toContain(`${ORIGIN}/portal/`)

    // Blocked between approval and sending: no sign-in link is minted for it.
    await program.applications.approve('cy@example.com')
    await program.affiliates.update('cy@example.com', { status: 'blocked' })
    await withLinks.dispatch()
    const blocked = smtp.received.find(({ to, mail }) => to[0] === 'cy@example.com' && mail.subject?.startsWith('Welcome'))!
    expect(blocked.mail.text).not.toContain('token=')
  })

  it('the sign-in page speaks the browser’s language, else the portal’s', async () => {
    const german = await (await fixture.portal(new Request(`${ORIGIN}/portal/sign-in`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } }))).text()
    expect(german).toContain('<html lang="de">')
    expect(german).toContain('Anmeldelink per E-Mail senden')
    const spanish = await portalFixture({ publicUrl: ORIGIN, emailSignIn: true, locale: 'es' })
    const fallback = await (await spanish.portal(new Request(`${ORIGIN}/portal/sign-in`, { headers: { 'accept-language': 'ja, it;q=0.5' } }))).text()
    expect(fallback).toContain('<html lang="es">')
    expect(fallback).toContain('Enviarme un enlace de acceso')
    await spanish.program.close()
  })

  it('one-click unsubscribe (RFC 8058) turns commission mails off; the next commission sends none', async () => {
    const ann = await fixture.program.affiliates.create({ email: 'ann@example.com' })
    await fixture.program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'o-1' })
    await mails.dispatch()
    const head = smtp.received[0]!.raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ')
    const url = /^List-Unsubscribe: <([^>]+)>/m.exec(head)![1]!
    expect(url.startsWith(`${ORIGIN}/portal/unsubscribe?token=`)).toBe(true)

    // The mail client's POST: no cookie, no CSRF token, the RFC 8058 body.
    const response = await fixture.portal(new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' }))
    expect(response.status).toBe(200)
    expect((await fixture.program.affiliates.get(ann.id)).emailOptOut).toEqual(['commissions'])

    await fixture.program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 20, reference: 'o-2' })
    await mails.dispatch()
    expect(smtp.received).toHaveLength(1)

    const forged = url.replace(/.$/, (char) => (char === 'A' ? 'B' : 'A'))
    expect((await fixture.portal(new Request(forged, { method: 'POST', body: 'List-Unsubscribe=One-Click' }))).status).toBe(400)
    const page = await fixture.portal(new Request(url, { headers: { 'accept-language': 'de' } }))
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('<html lang="de">')
    expect(text).toContain('E-Mails über Provisionen von Acme Partners abbestellen?')
  })

  it('the settings page sets the language and the preferences the next mails follow', async () => {
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const agent = new Agent(fixture.portal)
    const { url } = await fixture.portal.createSignInLink('ann@example.com')
    await agent.signIn(url)
    const csrf = await agent.csrfOf('/portal/settings')
    const page = await (await agent.get('/portal/settings')).text()
    expect(page).toContain('Email me about new commissions')
    const saved = await agent.post('/portal/settings', { csrf, payout_method: '', paypal_email: '', wise_email: '', payment_details: '', locale: 'es', email_preferences: '1', email_commissions: 'on' })
    expect(saved.status).toBe(303)
    expect(await program.affiliates.get(ann.id)).toMatchObject({ locale: 'es', emailOptOut: ['summary'] })
    const spanish = await (await agent.get('/portal/settings')).text()
    expect(spanish).toContain('Avisarme de nuevas comisiones')

    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'o-3' })
    await mails.dispatch()
    expect(plain(smtp.received[0]!.mail.subject)).toBe('Has ganado una comisión de 3,00 US$')
  })
})

describe('the console’s mail log', () => {
  it('shows a bounced mail with the SMTP reply; Retry queues it again and the next pass sends it', async () => {
    const { adminFixture, signedInAgent } = await import('../support/admin/helpers.js')
    const console = await adminFixture()
    let refuse = true
    const picky = await startSmtp({ reject: () => (refuse ? '550 5.7.1 not today' : null) })
    try {
      const dispatcher = createMailDispatcher({ storage: console.storage, mailer: smtpMailer(picky.url), from: 'partners@acme.example', clock: console.clock })
      await dispatcher.dispatch()
      const ann = await console.program.affiliates.create({ email: 'ann@example.com' })
      await console.program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'o-9' })
      await dispatcher.dispatch()
      const agent = await signedInAgent(console)
      const page = await (await agent.get('/admin/emails')).text()
      const row = [...page.matchAll(/<tr data-email="(\d+)">(.*?)<\/tr>/gs)].find((match) => match[2]!.includes('new commission'))!
      expect(row[2]).toContain('ann@example.com')
      expect(row[2]).toContain('bounced')
      expect(row[2]).toContain('550 5.7.1 not today')
      expect((await agent.get('/admin/emails?status=bounced')).status).toBe(200)
      expect((await agent.get('/admin/emails?status=lost')).status).toBe(400)

      refuse = false
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
      const retried = await agent.post(`/admin/emails/${row[1]}/retry`, { csrf })
      expect(retried.status).toBe(303)
      expect(await dispatcher.dispatch()).toBe(1)
      expect(picky.received.map((item) => item.to[0])).toEqual(['ann@example.com'])
      expect((await console.program.mail.get(Number(row[1]))).status).toBe('sent')
      expect((await console.program.mail.attempts(Number(row[1]))).map((attempt) => attempt.outcome)).toEqual(['bounced', 'sent'])
    } finally {
      await picky.stop()
      await console.program.close()
    }
  })
})
