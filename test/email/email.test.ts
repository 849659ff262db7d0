// Email over real SMTP (docs/email.md): a server started here receives what the mail dispatcher
// sends; mailparser reads it back. Recipients, subjects, both parts, amounts to the cent in the
// affiliate's language and the program's currency, the unsubscribe headers, preferences, host
// templates, bounces, and an SMTP server that is down for a while.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock, type TestClock } from '../../src/core/model/clock.js'
import { createAffiliateProgram, type AffiliateProgram, type StoragePort } from '../../src/index.js'
import { createMailDispatcher, readUnsubscribeToken, smtpMailer, type MailDispatcherOptions } from '../../src/email/index.js'
import { startSmtp, type SmtpCatcher } from '../support/email/smtp.js'

const SECRET = 'test-mail-secret-0123456789abcdefghijklmnop'
const PORTAL = 'https://partners.example.com/portal'

/** Intl writes the space before € (de, fr, es) as a no-break space: compared as a plain one. */
const plain = (text: string | false | undefined) => String(text ?? '').replace(/[\u00a0\u202f]/g, ' ')

let smtp: SmtpCatcher
let storage: StoragePort
let program: AffiliateProgram
let clock: TestClock

beforeEach(async () => {
  smtp = await startSmtp({ reject: (to) => (to.startsWith('gone@') ? '550 5.1.1 <gone@example.com>: mailbox unavailable' : null) })
  storage = memoryStorage()
  clock = testClock('2026-03-10T09:00:00Z')
  program = await createAffiliateProgram({ storage, clock, settings: { currency: 'EUR', holdPeriodDays: 30, commission: { purchase: { type: 'percentage', rate: 30 } } } })
  await storage.mail.enable(clock.now())
})

afterEach(async () => {
  await smtp.stop()
  await program.close()
})

function dispatcher(extra: Partial<MailDispatcherOptions> = {}) {
  return createMailDispatcher({
    storage,
    mailer: smtpMailer(smtp.url),
    from: 'Acme Partners <partners@acme.example>',
    replyTo: 'help@acme.example',
    portalUrl: PORTAL,
    secret: SECRET,
    theme: { title: 'Acme Partners', colors: { primary: '#aa3300' } },
    clock,
    jitter: 0,
    ...extra,
  })
}

describe('mails over SMTP', () => {
  it('a commission in German: recipient, subject, both parts, the amount to the cent, the unsubscribe headers', async () => {
    const anna = await program.affiliates.create({ email: 'anna@example.de', name: 'Anna', locale: 'de' })
    await program.conversions.create({ type: 'purchase', affiliateId: anna.id, baseValue: '123.40', reference: 'order-1' })
    expect(await dispatcher().dispatch()).toBe(1)

    expect(smtp.received).toHaveLength(1)
    const { mail, to } = smtp.received[0]!
    expect(to).toEqual(['anna@example.de'])
    expect(mail.from?.text).toBe('"Acme Partners" <partners@acme.example>')
    expect(mail.replyTo?.text).toBe('help@acme.example')
    // 30 % of 123.40 EUR is 37.02 EUR, written the German way.
    expect(mail.subject).toBe('Sie haben eine Provision von 37,02\u00a0€ verdient')
    expect(mail.text).toContain('Hallo Anna,')
    expect(plain(mail.text)).toContain('Sie haben 37,02 € verdient.')
    // The hold of 30 days ends on 9 April 2026.
    expect(mail.text).toContain('am 9. April 2026 auszahlbar')
    expect(plain(mail.html)).toContain('37,02 €')
    expect(mail.html).toContain('background:#aa3300')
    expect(mail.html).toContain('lang="de"')
    expect(mail.headers.get('content-language')).toBe('de')
    // Headers as sent, long ones unfolded.
    const head = smtp.received[0]!.raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ')
    const unsubscribe = /^List-Unsubscribe: (.*)$/m.exec(head)?.[1]?.trim() ?? ''
    expect(unsubscribe).toMatch(/^<https:\/\/partners\.example\.com\/portal\/unsubscribe\?token=[^>]+>$/)
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
    const token = new URL(unsubscribe.slice(1, -1)).searchParams.get('token')
    expect(readUnsubscribeToken(SECRET, program.projectId, token)).toEqual({ affiliateId: anna.id, topic: 'commissions' })
    expect(mail.messageId).toMatch(/^<mail\.\d+\.proj_[A-Za-z0-9]+@acme\.example>$/)

    const logged = (await storage.mail.list(program.projectId, { limit: 10, offset: 0 })).items.find((item) => item.kind === 'new_commission')
    expect(logged).toMatchObject({ kind: 'new_commission', status: 'sent', attempts: 1, recipient: 'anna@example.de' })
    expect(logged!.lastReply).toMatch(/^250/)
  })

  it('the commission becomes "ready for payout" when its hold ends, in French, and not before', async () => {
    const zoe = await program.affiliates.create({ email: 'zoe@example.fr', locale: 'fr' })
    await program.conversions.create({ type: 'purchase', affiliateId: zoe.id, baseValue: '1000.05', reference: 'order-2' })
    const mails = dispatcher()
    await mails.dispatch()
    expect(smtp.received.map((item) => plain(item.mail.subject))).toEqual(['Vous avez gagné une commission de 300,02 €'])
    clock.advance({ days: 29 })
    expect(await mails.dispatch()).toBe(0)
    clock.advance({ days: 1, minutes: 1 })
    expect(await mails.dispatch()).toBe(1)
    const ready = smtp.received[1]!.mail
    expect(plain(ready.subject)).toBe('300,02 € est prêt à être versé')
    expect(ready.text).toContain('Bonjour,')
  })

  it('a payout in Spanish and a sign-in link in English carry no unsubscribe header: they cannot be turned off', async () => {
    const eva = await program.affiliates.create({ email: 'eva@example.es', name: 'Eva', locale: 'es' })
    await program.conversions.create({ type: 'purchase', affiliateId: eva.id, baseValue: 50, reference: 'order-3' })
    const mails = dispatcher()
    await mails.dispatch()
    clock.advance({ days: 31 })
    await program.payouts.create({ affiliateId: eva.id, amount: '15.00', method: 'paypal' })
    const tom = await program.affiliates.create({ email: 'tom@example.com', name: 'Tom' })
    await program.portal.recordSignInRequest({ affiliateId: tom.id, link: `${PORTAL}/sign-in/abc`, expiresAt: new Date(clock.now().getTime() + 900_000) })
    await mails.dispatch()

    const bySubject = new Map(smtp.received.map((item) => [plain(item.mail.subject), item]))
    expect([...bySubject.keys()].sort()).toEqual(['15,00 € está listo para el pago', 'Has ganado una comisión de 15,00 €', 'Pago enviado: 15,00 €', 'Your sign-in link for Acme Partners'])
    const payout = bySubject.get('Pago enviado: 15,00 €')!
    expect(payout.to).toEqual(['eva@example.es'])
    expect(plain(payout.mail.text)).toContain('Te enviamos un pago de 15,00 €')
    expect(payout.mail.headers.has('list-unsubscribe')).toBe(false)
    const signIn = bySubject.get('Your sign-in link for Acme Partners')!
    expect(signIn.to).toEqual(['tom@example.com'])
    expect(signIn.mail.text).toContain(`Sign in: ${PORTAL}/sign-in/abc`)
    expect(signIn.mail.html).toContain(`href="${PORTAL}/sign-in/abc"`)
    expect(signIn.mail.headers.has('list-unsubscribe')).toBe(false)
  })

  it('commission mails turned off are skipped and logged; sign-in mails still go', async () => {
    const ann = await program.affiliates.create({ email: 'ann@example.com', emailOptOut: ['commissions'] })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'order-4' })
    await program.portal.recordSignInRequest({ affiliateId: ann.id, link: `${PORTAL}/sign-in/x`, expiresAt: new Date(clock.now().getTime() + 900_000) })
    await dispatcher().dispatch()
    expect(smtp.received.map((item) => item.mail.subject)).toEqual(['Your sign-in link for Acme Partners'])
    const statuses = (await storage.mail.list(program.projectId, { limit: 10, offset: 0 })).items.map((mail) => [mail.kind, mail.status, mail.lastReply])
    expect(statuses).toContainEqual(['new_commission', 'skipped', 'the affiliate turned off commissions emails'])
  })

  it('a host template replaces one kind; the others keep the default', async () => {
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'order-5' })
    await dispatcher({
      templates: {
        new_commission: (context) => ({ subject: `+${context.values.amount} for ${context.affiliate.email}`, text: `t:${context.values.amount}`, html: `<p>h:${context.values.amount}</p>` }),
      },
    }).dispatch()
    const { mail } = smtp.received[0]!
    expect(mail.subject).toBe('+€3.00 for ann@example.com')
    expect(mail.text?.trim()).toBe('t:€3.00')
    expect(mail.html).toContain('<p>h:€3.00</p>')
  })

  it('a 5xx refusal is a bounce with the SMTP reply, not retried, and retryable by hand', async () => {
    const gone = await program.affiliates.create({ email: 'gone@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: gone.id, baseValue: 10, reference: 'order-6' })
    const mails = dispatcher()
    await mails.dispatch()
    const bounced = (await storage.mail.list(program.projectId, { limit: 10, offset: 0 })).items.find((mail) => mail.kind === 'new_commission')
    expect(bounced).toMatchObject({ status: 'bounced', attempts: 1 })
    expect(bounced!.lastReply).toContain('550')
    expect(bounced!.lastReply).toContain('mailbox unavailable')
    clock.advance({ days: 1 })
    expect(await mails.dispatch()).toBe(0)
    await program.mail.retry(bounced!.id)
    expect(await mails.dispatch()).toBe(1)
    expect(await storage.mailAttempts.all(program.projectId, { mailId: bounced!.id })).toHaveLength(2)
  })
})

describe('mail is on from the first dispatcher', () => {
  it('what happened before no mail dispatcher ever ran sends nothing; what happens after does', async () => {
    const fresh = memoryStorage()
    const before = await createAffiliateProgram({ storage: fresh, clock })
    const ann = await before.affiliates.create({ email: 'ann@example.com' })
    await before.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'before' })
    const mails = dispatcher({ storage: fresh })
    expect(await mails.dispatch()).toBe(0)
    await before.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 20, reference: 'after' })
    expect(await mails.dispatch()).toBe(1)
    expect(smtp.received.map((item) => item.mail.subject)).toEqual(['You earned a commission of $6.00'])
    await before.close()
  })
})

describe('application mails, from the application events', () => {
  it('received, approved, rejected with the reason: each a mail, with no code of the application feature', async () => {
    await program.applications.apply({ email: 'lea@example.fr', name: 'Léa', signup: 'review' })
    await program.applications.apply({ email: 'max@example.com', name: 'Max', signup: 'review' })
    await program.affiliates.update('lea@example.fr', { locale: 'fr' })
    await program.applications.approve('lea@example.fr')
    await program.applications.reject('max@example.com', { reason: 'Your site is about gambling.' })
    await dispatcher().dispatch()
    // Composed when sent: Léa's language, set after she applied, applies to both of her mails.
    const mails = smtp.received.map((item) => `${item.to[0]}: ${plain(item.mail.subject)}`).sort()
    expect(mails).toEqual([
      'lea@example.fr: Bienvenue chez Acme Partners : votre candidature est acceptée',
      'lea@example.fr: Nous avons reçu votre candidature à Acme Partners',
      'max@example.com: We received your application to Acme Partners',
      'max@example.com: Your application to Acme Partners',
    ])
    const rejected = smtp.received.find((item) => item.mail.subject === 'Your application to Acme Partners')!.mail
    expect(rejected.text).toContain('Hi Max,')
    expect(rejected.text).toContain('Reason: Your site is about gambling.')
    expect(rejected.html).toContain('Reason: Your site is about gambling.')
    expect(rejected.headers.has('list-unsubscribe')).toBe(false)
  })
})

describe('an erased affiliate', () => {
  it('gets none of the mail queued before the erase, not at the placeholder address either, even retried by hand', async () => {
    const zoe = await program.affiliates.create({ email: 'zoe@example.com', name: 'Zoe' })
    await program.conversions.create({ type: 'purchase', affiliateId: zoe.id, baseValue: '50.00', reference: 'zoe-1' })
    const [queued] = (await program.mail.list({ limit: 10 })).items
    expect(queued).toMatchObject({ affiliateId: zoe.id, status: 'queued' })

    await program.personalData.eraseAffiliate(zoe.id)
    await dispatcher().dispatch()
    expect((await program.mail.get(queued!.id)).status).toBe('skipped')
    await program.mail.retry(queued!.id)
    await dispatcher().dispatch()

    expect(smtp.received).toEqual([])
    const [after] = (await program.mail.list({ limit: 10 })).items
    expect(after).toMatchObject({ id: queued!.id, status: 'skipped', recipient: `erased-${zoe.id}@erased.invalid` })
  })
})

describe('the monthly summary', () => {
  it('is queued once per affiliate and month and says what the month brought, to the cent', async () => {
    const ann = await program.affiliates.create({ email: 'ann@example.com', name: 'Ann' })
    const off = await program.affiliates.create({ email: 'off@example.com', emailOptOut: ['summary'] })
    await program.affiliates.create({ email: 'idle@example.com' })
    clock.set('2026-02-10T10:00:00Z')
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '100.00', reference: 'feb-1' })
    clock.set('2026-03-12T10:00:00Z')
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '45.50', reference: 'mar-1' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '19.99', reference: 'mar-2' })
    await program.conversions.create({ type: 'purchase', affiliateId: off.id, baseValue: '10.00', reference: 'mar-3' })
    clock.set('2026-03-20T10:00:00Z')
    await program.payouts.create({ affiliateId: ann.id, amount: '30.00', method: 'paypal' })
    clock.set('2026-04-02T06:00:00Z')
    expect(await program.mail.queueMonthlySummaries()).toBe(1)
    expect(await program.mail.queueMonthlySummaries({ month: '2026-03' })).toBe(0)
    await expect(program.mail.queueMonthlySummaries({ month: '2026-04' })).rejects.toMatchObject({ field: 'month' })
    await dispatcher().dispatch()
    const summary = smtp.received.find((item) => item.mail.subject?.startsWith('Your Acme Partners summary'))!
    expect(summary.to).toEqual(['ann@example.com'])
    expect(summary.mail.subject).toBe('Your Acme Partners summary for March 2026')
    // March: 30 % of 45.50 + 19.99 = 13.65 + 6.00 (5.997 rounded) = 19.65; the balance 30.00 + 19.65 - 30.00.
    expect(summary.mail.text).toContain('Commission earned: €19.65')
    expect(summary.mail.text).toContain('Conversions: 2')
    expect(summary.mail.text).toContain('Paid out: €30.00')
    expect(summary.mail.text).toContain('Unpaid balance: €19.65')
    expect(summary.mail.html).toContain('Commission earned: €19.65')
  })
})

describe('an SMTP server that is down', () => {
  it('delays every mail and loses none: they go once it is back (an outage of 3 seconds, retries every second)', { timeout: 30_000 }, async () => {
    const realClock = { now: () => new Date() }
    program = await createAffiliateProgram({ storage, settings: { currency: 'USD' } })
    const affiliates = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => program.affiliates.create({ email: `${name}@example.com`, name })))
    for (const [index, affiliate] of affiliates.entries()) {
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 + index, reference: `down-${index}` })
    }
    await smtp.stop()
    const mails = dispatcher({ clock: realClock, retryDelaysSeconds: Array(30).fill(1) })
    mails.start({ pollIntervalMs: 100 })
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const waiting = (await storage.mail.list(program.projectId, { limit: 10, offset: 0 })).items
    expect(waiting.every((mail) => mail.status !== 'sent')).toBe(true)
    expect(waiting.every((mail) => mail.attempts >= 2)).toBe(true)
    expect(smtp.received).toHaveLength(0)
    await smtp.start()
    const deadline = Date.now() + 15_000
    while (smtp.received.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    await mails.stop()
    expect(smtp.received.map((item) => item.to[0]).sort()).toEqual(affiliates.map((affiliate) => affiliate.email).sort())
    expect(new Set(smtp.received.map((item) => item.mail.messageId)).size).toBe(5)
    // $100.00..$104.00 at 30 %: 30.00, 30.30, 30.60, 30.90, 31.20.
    expect(smtp.received.map((item) => item.mail.subject).sort()).toEqual(
      ['$30.00', '$30.30', '$30.60', '$30.90', '$31.20'].map((amount) => `You earned a commission of ${amount}`),
    )
    const sent = (await storage.mail.list(program.projectId, { limit: 10, offset: 0, status: 'sent' })).total
    expect(sent).toBe(5)
  })
})
