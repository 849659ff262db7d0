// GDPR erase on every adapter (docs/privacy.md): after erasing an affiliate (or a referred user)
// its totals are unchanged and its email, name, PayPal email and payment details are in no stored
// text: the adapter's whole storage is read (every text and JSON column of every table in SQL,
// every stored object in memory), including webhook bodies, idempotency answers and the audit log.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { caller } from '../support/http/helpers.js'
import type { CaseContext } from './harness.js'
import { recordAllEvents } from './helpers.js'

export function personalDataCases(context: CaseContext): void {
  describe('GDPR export and erase', () => {
    const stored = async () => {
      if (!context.adapter.storedText) throw new Error(`${context.adapter.name}: the adapter gives no storedText`)
      return (await context.adapter.storedText(context.storage)).toLowerCase()
    }

    it('erasing an affiliate keeps its totals and leaves its email and name in no stored text', async () => {
      const { program, clock, storage } = await context.program({ settings: { holdPeriodDays: 0 } })
      const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`
      const email = `zelda.${tag}@example.com`
      const name = `Zelda Quintanilla${tag}`
      const paypal = `zelda.pay.${tag}@example.com`
      const details = `IBAN DE89${tag}`
      await recordAllEvents(program)
      const { key } = await program.keys.create({ name: 'erase' })
      const call = caller(createHandler(program, { rateLimit: false, state: storage.keyedState }), key)
      // Created over REST with an Idempotency-Key: its stored answer holds the email and name.
      const created = await call('POST', '/affiliates', { email, referral_code: `ZQ${tag}`, payment_details: details, paypal_email: paypal }, { headers: { 'Idempotency-Key': `create-${tag}` } })
      expect(created.status).toBe(201)
      const affiliate = await program.affiliates.update(email, { name })
      await program.referrals.create({ email: `buyer.${tag}@example.com`, affiliateId: affiliate.id })
      await program.conversions.create({ type: 'purchase', email: `buyer.${tag}@example.com`, baseValue: '100.00', reference: `ch_${tag}` })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '33.33', reference: `ch2_${tag}`, email })
      clock.advance({ days: 1 })
      await program.payouts.create({ affiliateId: affiliate.id, amount: '10.00' })
      await storage.auditLog.record({ projectId: program.projectId, actorId: 'key:1', actorName: 'Owner', action: 'affiliate.edit', target: `affiliate:${affiliate.id}`, detail: `name ${name}, email ${email}`, at: clock.now() })
      const before = await program.affiliates.get(affiliate.id)
      expect(await stored()).toContain(email)

      const erased = await program.personalData.eraseAffiliate(email)

      expect(erased.affiliate.email).toBe(`erased-${affiliate.id}@erased.invalid`)
      expect(erased.affiliate.name).toBeNull()
      const after = await program.affiliates.get(affiliate.id)
      expect(after.earnings).toEqual(before.earnings)
      expect([after.purchases, after.signups, after.clicks]).toEqual([before.purchases, before.signups, before.clicks])
      expect((await program.payouts.list({ affiliateId: affiliate.id })).items.map((payout) => payout.amount)).toEqual(['10.00'])
      const text = await stored()
      for (const gone of [email, name, paypal, details]) expect(text.split("\n").filter((line) => line.includes(gone.toLowerCase())), gone).toEqual([])
      // The referred user is someone else: still there.
      expect(text).toContain(`buyer.${tag}@example.com`)
      await expect(program.affiliates.get(email)).rejects.toMatchObject({ code: 'not_found' })
    })

    it('erasing a referred user keeps its conversions and leaves its email in no stored text', async () => {
      const { program } = await context.program()
      const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`
      const buyer = `buyer.${tag}@example.com`
      await recordAllEvents(program)
      const affiliate = await program.affiliates.create({ email: `aff.${tag}@example.com` })
      const referral = await program.referrals.create({ email: buyer, affiliateId: affiliate.id })
      await program.conversions.create({ type: 'purchase', email: buyer, baseValue: '80.00', reference: `ch_${tag}` })
      const before = await program.affiliates.get(affiliate.id)
      const exported = await program.personalData.exportReferral(referral.id)
      expect(exported.conversions.map((conversion) => conversion.customerEmail)).toEqual([buyer])

      const erased = await program.personalData.eraseReferral(referral.id)

      expect(erased.referral.email).toBe(`erased-referral-${referral.id}@erased.invalid`)
      expect(erased.conversions.map((conversion) => conversion.value)).toEqual(exported.conversions.map((conversion) => conversion.value))
      expect((await program.affiliates.get(affiliate.id)).earnings).toEqual(before.earnings)
      expect(await stored()).not.toContain(buyer)
    })

    it('an applicant: the export holds all the program keeps about them; erase leaves none of it stored and drops the mail queued to them', async () => {
      const { program, clock, storage } = await context.program()
      // Events become mails from now on (for the whole storage, as a running mail dispatcher does).
      await storage.mail.enable(clock.now())
      await recordAllEvents(program)
      const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`
      const email = `ada.${tag}@example.com`
      const name = `Ada Lovelace${tag}`
      const paypal = `ada.pay.${tag}@example.com`
      const details = `IBAN GB29${tag}`
      const website = `https://ada-${tag}.example`
      const promotion = `A baking podcast, Ada${tag}`
      const audience = `Bakers of Ada${tag}`
      const { affiliate } = await program.applications.apply({ email, name, website, promotion, fields: { audience, short: 'yes', discloses: true }, signup: 'review' })
      await program.applications.approve(affiliate.id)
      await program.affiliates.update(affiliate.id, { paypalEmail: paypal, paymentDetails: details, payoutMethod: 'paypal' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '40.00' })

      const exported = await program.personalData.exportAffiliate(email)
      expect(exported.personal).toMatchObject({ email, name, paypalEmail: paypal, paymentDetails: details, payoutMethod: 'paypal' })
      expect(exported.affiliate.application).toMatchObject({ website, promotion, fields: { audience, short: 'yes', discloses: true } })
      // The mails to them: the application's, the approval's and the commission's.
      expect(exported.mails.map((mail) => [mail.kind, mail.recipient]).sort()).toEqual([
        ['application_received', email],
        ['approved', email],
        ['new_commission', email],
      ])
      // Over REST, in both shapes: the name, the PayPal email and the payment details are there.
      const { key } = await program.keys.create({ name: 'export' })
      for (const shape of ['primary', 'alternative'] as const) {
        const call = caller(createHandler(program, { rateLimit: false, shape, state: storage.keyedState }), key)
        const response = await call('GET', `/affiliates/${encodeURIComponent(email)}/export`)
        expect(response.status, shape).toBe(200)
        const body = response.body as { data: Record<string, Record<string, unknown>> }
        const data = shape === 'primary' ? body.data : (body.data.export as unknown as Record<string, Record<string, unknown>>)
        const personal = data[shape === 'primary' ? 'personal_details' : 'personalDetails']!
        expect(Object.values(personal), shape).toEqual(expect.arrayContaining([email, name, paypal, details]))
        expect((data.mails as unknown as Array<{ recipient: string }>).map((mail) => mail.recipient), shape).toEqual([email, email, email])
      }
      const mailsOf = async () => (await storage.mail.list(program.projectId, { limit: 100, offset: 0 })).items.filter((mail) => mail.affiliateId === affiliate.id)
      expect((await mailsOf()).filter((mail) => mail.status === 'queued').length).toBeGreaterThanOrEqual(2)

      const erased = await program.personalData.eraseAffiliate(email)

      expect(erased.personal).toMatchObject({ name: null, paypalEmail: null, paymentDetails: null, payoutMethod: null })
      expect(erased.affiliate.application ?? null).toBeNull()
      // Nothing queued to them goes out: not to the placeholder either.
      expect((await mailsOf()).map((mail) => mail.status)).toEqual((await mailsOf()).map(() => 'skipped'))
      const text = await stored()
      for (const gone of [email, name, paypal, details, website, promotion, audience]) {
        expect(text.split('\n').filter((line) => line.includes(gone.toLowerCase())), gone).toEqual([])
      }
    })

    it('export lists what is stored about the affiliate, the tax id never in full', async () => {
      const { program } = await context.program()
      const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`
      const affiliate = await program.affiliates.create({ email: `exp.${tag}@example.com`, name: 'Export Me' })
      await program.referrals.create({ email: `r.${tag}@example.com`, affiliateId: affiliate.id })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '50.00' })
      const exported = await program.personalData.exportAffiliate(affiliate.email)
      expect(exported.affiliate.email).toBe(affiliate.email)
      expect(exported.referrals.map((referral) => referral.email)).toEqual([`r.${tag}@example.com`])
      expect(exported.conversions).toHaveLength(1)
      expect(exported.taxDetails).toBeNull()
      await expect(program.personalData.exportAffiliate('nobody@example.com')).rejects.toMatchObject({ code: 'not_found' })
    })
  })
}
