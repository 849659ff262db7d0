// The fraud rules on every adapter (docs/fraud.md): each rule that reads the storage (the click's
// visitor signals, signups per visitor, earlier card fingerprints) trips and does not trip; a
// rejected conversion is recorded, earns nothing and says why; the program's fraudCheck holds one.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram, ProjectSettingsInput, StoragePort } from '../../src/index.js'
import { referralSignature } from '../../src/core/model/signed-referral.js'
import { shortVisitor, visitorHash } from '../../src/core/model/visitor-hash.js'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

const BROWSER = { address: '203.0.113.5', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }

/** A browser's visitor hash today, and the signed referral (the ak_ref value) of its click on `code`. */
async function clickOf(storage: StoragePort, program: AffiliateProgram, code: string, browser = BROWSER) {
  const salt = await storage.tracking.visitorSalt(program.projectId, 'salt-of-the-first-use')
  const day = program.clock.now().toISOString().slice(0, 10)
  const hash = visitorHash(salt, day, browser.address, browser.userAgent)
  const referral = { code, expires: Math.floor(program.clock.now().getTime() / 1000) + 86_400, visitor: shortVisitor(hash) }
  return { hash, click: `${code}.${referral.expires}.${referral.visitor}.${referralSignature(salt, referral)}` }
}

async function programWith(context: CaseContext, fraud: NonNullable<ProjectSettingsInput['fraud']>) {
  const made = await context.program({ settings: { fraud } })
  made.clock.set('2026-04-01T10:00:00Z')
  const ann = await made.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN', paypalEmail: 'ann.pays@example.net' })
  return { ...made, ann }
}

export function fraudCases(context: CaseContext): void {
  describe('fraud rules', () => {
    it('selfReferral (default review): the affiliate as customer by email, +tag or PayPal email is held with its reason; another customer is not', async () => {
      const { program } = await context.program()
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN', paypalEmail: 'ann.pays@example.net' })
      const own = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'Ann+shop@Example.com', baseValue: 100 })
      expect(own.conversion).toMatchObject({ status: 'review', reviewReason: "self-referral: the customer's email is the affiliate's" })
      const paypal = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'ann.pays@example.net', baseValue: 100 })
      expect(paypal.conversion.status).toBe('review')
      const other = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'bob@example.com', baseValue: 100 })
      expect(other.conversion).toMatchObject({ status: 'active', reviewReason: null })
      expect((await program.affiliates.get('ann@example.com')).earnings.total).toBe('30.00')
    })

    it('a rejected conversion is recorded as rejected, earns nothing, counts nothing and says why', async () => {
      const { program, ann } = await programWith(context, { selfReferral: 'reject' })
      const { conversion } = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'ann@example.com', baseValue: 100, reference: 'order-1' })
      expect(conversion).toMatchObject({ status: 'rejected', value: '30.00', reviewReason: "self-referral: the customer's email is the affiliate's" })
      expect(await program.conversions.get(conversion.id)).toMatchObject({ status: 'rejected', reviewReason: "self-referral: the customer's email is the affiliate's" })
      expect(await program.affiliates.get(ann.id)).toMatchObject({ purchases: 0, earnings: { total: '0.00', unpaid: '0.00' } })
      const stats = await program.stats.affiliate('ann@example.com', { from: '2026-04-01', to: '2026-04-02' })
      expect(stats.buckets[0]).toMatchObject({ purchases: 0, commission: 0n })
    })

    it('selfReferral: a card that paid for the affiliate\'s own purchase holds a later customer\'s conversion; another card does not', async () => {
      const { program } = await programWith(context, { selfReferral: 'review' })
      await program.affiliates.create({ email: 'bea@example.com', referralCode: 'BEA' })
      // Ann buys for herself through Bea's link with her card.
      await program.conversions.create({ type: 'purchase', referralCode: 'BEA', email: 'ann@example.com', baseValue: 50, cardFingerprint: 'fp_ANN' })
      const sameCard = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'carl@example.com', baseValue: 100, cardFingerprint: 'fp_ANN' })
      expect(sameCard.conversion).toMatchObject({ status: 'review', reviewReason: "self-referral: the card paid for the affiliate's own purchase" })
      const otherCard = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'dana@example.com', baseValue: 100, cardFingerprint: 'fp_DANA' })
      expect(otherCard.conversion).toMatchObject({ status: 'active', reviewReason: null })
    })

    it('sameVisitor: a click from the browser the affiliate used its portal from that day is held; another browser is not', async () => {
      const { program, storage, ann } = await programWith(context, { sameVisitor: 'review' })
      await program.tracking.ownVisit({ affiliateId: ann.id, ...BROWSER })
      const own = await clickOf(storage, program, 'ANN')
      const held = await program.conversions.create({ type: 'signup', referralCode: 'ANN', email: 'x1@example.com', click: own.click })
      expect(held.conversion).toMatchObject({ status: 'review', reviewReason: "same visitor: the click came from the affiliate's own browser" })
      const stranger = await clickOf(storage, program, 'ANN', { address: '198.51.100.7', userAgent: BROWSER.userAgent })
      const clean = await program.conversions.create({ type: 'signup', referralCode: 'ANN', email: 'x2@example.com', click: stranger.click })
      expect(clean.conversion).toMatchObject({ status: 'active', reviewReason: null })
    })

    it('paidAdsClick: a click that came with a gclid is rejected; one without is not', async () => {
      const { program, storage } = await programWith(context, { paidAdsClick: 'reject' })
      const ad = await clickOf(storage, program, 'ANN')
      await program.tracking.visit({ referralCode: 'ANN', visitor: () => ad.hash, paidAdClickId: 'gclid' })
      const rejected = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'ad@example.com', baseValue: 100, click: ad.click })
      expect(rejected.conversion).toMatchObject({ status: 'rejected', reviewReason: 'paid ad: the click carried gclid' })
      const organic = await clickOf(storage, program, 'ANN', { address: '198.51.100.8', userAgent: BROWSER.userAgent })
      await program.tracking.visit({ referralCode: 'ANN', visitor: () => organic.hash })
      const kept = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'organic@example.com', baseValue: 100, click: organic.click })
      expect(kept.conversion).toMatchObject({ status: 'active', reviewReason: null })
    })

    it('signupsPerVisitorPerDay: signups of one click visitor past max are held; another visitor is not', async () => {
      const { program, storage } = await programWith(context, { signupsPerVisitorPerDay: { max: 2, action: 'review' } })
      const { click } = await clickOf(storage, program, 'ANN')
      const statuses: string[] = []
      for (const email of ['s1@example.com', 's2@example.com', 's3@example.com']) {
        statuses.push((await program.conversions.create({ type: 'signup', referralCode: 'ANN', email, click })).conversion.status)
      }
      expect(statuses).toEqual(['active', 'active', 'review'])
      const third = (await program.conversions.list({ type: 'signup' })).items.find((item) => item.customerEmail === 's3@example.com')
      expect(third?.reviewReason).toBe('signups per visitor: more than 2 from one visitor in a day')
      const other = await clickOf(storage, program, 'ANN', { address: '198.51.100.9', userAgent: BROWSER.userAgent })
      expect((await program.conversions.create({ type: 'signup', referralCode: 'ANN', email: 's4@example.com', click: other.click })).conversion.status).toBe('active')
    })

    it('fraudCheck holds a conversion with its own reason, sees the signals and the rules tripped, and the strictest action wins', async () => {
      const seen: unknown[] = []
      const { program, clock } = await context.program({
        settings: { fraud: { disposableEmail: 'review' } },
        fraudCheck: (conversion, signals) => {
          seen.push({ email: conversion.customerEmail, value: conversion.value, disposable: signals.disposableEmail, flags: signals.flags.map((flag) => flag.rule) })
          if (conversion.customerEmail === 'vip@mailinator.com') return 'reject'
          return conversion.baseValue === '999.00' ? { action: 'review', reason: 'manual check: order of 999.00' } : 'allow'
        },
      })
      clock.set('2026-04-01T10:00:00Z')
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const held = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'big@example.com', baseValue: 999 })
      expect(held.conversion).toMatchObject({ status: 'review', reviewReason: 'manual check: order of 999.00' })
      const both = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'vip@mailinator.com', baseValue: 10 })
      expect(both.conversion).toMatchObject({ status: 'rejected' })
      expect(both.conversion.reviewReason).toContain('disposable email')
      const allowed = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'small@example.com', baseValue: 10 })
      expect(allowed.conversion.status).toBe('active')
      expect(seen).toEqual([
        { email: 'big@example.com', value: '299.70', disposable: false, flags: [] },
        { email: 'vip@mailinator.com', value: '3.00', disposable: true, flags: ['disposableEmail'] },
        { email: 'small@example.com', value: '3.00', disposable: false, flags: [] },
      ])
    })

    it('a throwing fraudCheck creates nothing', async () => {
      const { program } = await context.program({
        fraudCheck: () => {
          throw new Error('risk service down')
        },
      })
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const before = await snapshot(program)
      await expect(program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'bob@example.com', baseValue: 10 })).rejects.toThrow('risk service down')
      expect(await snapshot(program)).toBe(before)
    })

    it('refuses a click that is not a signed referral of this program, and bad fraud settings, changing nothing', async () => {
      const { program, storage } = await programWith(context, {})
      const before = await snapshot(program)
      const { click } = await clickOf(storage, program, 'ANN')
      const forged = `${click.slice(0, -22)}${'A'.repeat(22)}`
      await expectError(program.conversions.create({ type: 'signup', referralCode: 'ANN', email: 'f@example.com', click: forged }), 'invalid_request', 'click')
      await expectError(program.conversions.create({ type: 'signup', referralCode: 'ANN', email: 'f@example.com', click: 'ANN' }), 'invalid_request', 'click')
      expect(await snapshot(program)).toBe(before)
      const id = program.projectId
      await expectError(program.projects.updateSettings(id, { fraud: { selfReferral: 'block' as 'reject' } }), 'invalid_request', 'fraud.selfReferral')
      await expectError(program.projects.updateSettings(id, { fraud: { amountAbove: { amount: '10.001', action: 'review' } } }), 'invalid_request', 'fraud.amountAbove.amount')
      await expectError(program.projects.updateSettings(id, { fraud: { signupsPerVisitorPerDay: { max: -1, action: 'review' } } }), 'invalid_request', 'fraud.signupsPerVisitorPerDay.max')
      await expectError(program.projects.updateSettings(id, { fraud: { paidAds: 'review' } as never }), 'invalid_request')
      const saved = await program.projects.updateSettings(id, { fraud: { disposableEmail: 'reject' } })
      expect(saved.settings.fraud).toEqual({ selfReferral: 'review', sameVisitor: 'allow', disposableEmail: 'reject', paidAdsClick: 'allow' })
    })
  })
}
