// Tracking on every adapter: visits counted once per visitor per day, per-day counters and the
// stats built from them (buckets, time zone), attribution settings (first click, last click, the
// window) and browser signups, and the tracking store's own atomicity.
import { describe, expect, it } from 'vitest'
import { markVisitor } from '../support/analytics/clicks.js'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

const visitor = (name: string) => (day: string) => `${name}:${day}`

export function trackingCases(context: CaseContext): void {
  describe('tracking: visits', () => {
    it('counts a visit once per visitor per day, again the next day, and nothing for unknown, inactive or other-program codes', async () => {
      const { program, clock } = await context.program({ settings: { subPrograms: { shop: { commission: { purchase: { type: 'percentage', rate: 20 } } } } } })
      clock.set('2026-03-10T10:00:00Z')
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      await program.affiliates.create({ email: 'off@example.com', referralCode: 'OFF' })
      await program.affiliates.update('off@example.com', { status: 'inactive' })
      await program.affiliates.create({ email: 'sub@example.com', referralCode: 'SUB', partnerSlug: 'shop' })

      expect(await program.tracking.visit({ referralCode: 'ann', visitor: visitor('v1') })).toEqual({ affiliate: { id: ann.id, referralCode: 'ANN' }, counted: true })
      expect((await program.tracking.visit({ referralCode: 'ANN', visitor: visitor('v1') })).counted).toBe(false)
      expect((await program.tracking.visit({ referralCode: 'ANN', visitor: visitor('v2') })).counted).toBe(true)
      clock.advance({ days: 1 })
      expect((await program.tracking.visit({ referralCode: 'ANN', visitor: visitor('v1') })).counted).toBe(true)

      expect(await program.tracking.visit({ referralCode: 'NOPE', visitor: visitor('v1') })).toEqual({ affiliate: null, counted: false })
      expect(await program.tracking.visit({ referralCode: 'OFF', visitor: visitor('v1') })).toEqual({ affiliate: null, counted: false })
      expect(await program.tracking.visit({ referralCode: '../x', visitor: visitor('v1') })).toEqual({ affiliate: null, counted: false })
      expect((await program.tracking.visit({ referralCode: 'SUB', partnerSlug: 'other', visitor: visitor('v1') })).affiliate).toBeNull()
      expect((await program.tracking.visit({ referralCode: 'SUB', partnerSlug: 'shop', visitor: visitor('v1') })).counted).toBe(true)
      // A visit that must not count (a bot, an address past its visitors) still names the affiliate.
      expect(await program.tracking.visit({ referralCode: 'ANN', visitor: null })).toEqual({ affiliate: { id: ann.id, referralCode: 'ANN' }, counted: false })
      expect((await program.affiliates.get('ann@example.com')).clicks).toBe(3)
      expect((await program.affiliates.get('off@example.com')).clicks).toBe(0)

      const stats = await program.stats.affiliate('ann@example.com', { from: '2026-03-10', to: '2026-03-12' })
      expect(stats.buckets.map(({ start, clicks, visitors }) => ({ start, clicks, visitors }))).toEqual([
        { start: '2026-03-10', clicks: 2, visitors: 2 },
        { start: '2026-03-11', clicks: 1, visitors: 1 },
      ])
    })

    it('keeps the visitor salt of the first caller', async () => {
      const { program } = await context.program()
      const first = await program.tracking.visitorSalt('salt-one')
      expect(first).toBe('salt-one')
      expect(await program.tracking.visitorSalt('salt-two')).toBe('salt-one')
    })
  })

  describe('tracking: stats over time', () => {
    it('counts clicks, signups, purchases, revenue and commission per day, week and month, with empty buckets', async () => {
      const { program, clock } = await context.program({ settings: { commission: { purchase: { type: 'percentage', rate: 10 } } } })
      clock.set('2026-03-02T12:00:00Z') // a Monday
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
      await program.trackClick({ referralCode: 'ANN' })
      await program.referrals.create({ email: 'c1@example.com', referralCode: 'ANN' })
      await program.conversions.create({ type: 'purchase', email: 'c1@example.com', baseValue: '100.00', reference: 'p1' })
      clock.set('2026-03-10T12:00:00Z')
      await program.conversions.create({ type: 'purchase', referralCode: 'BOB', email: 'c2@example.com', baseValue: '50.50', reference: 'p2' })
      clock.set('2026-04-01T12:00:00Z')
      await program.trackClick({ referralCode: 'BOB' })

      const days = await program.stats.program({ from: '2026-03-01', to: '2026-03-04' })
      expect(days).toMatchObject({ interval: 'day', timeZone: 'UTC', currency: 'USD', from: '2026-03-01', to: '2026-03-04' })
      expect(days.buckets).toEqual([
        { start: '2026-03-01', clicks: 0, visitors: 0, signups: 0, purchases: 0, customers: 0, revenue: 0n, commission: 0n },
        { start: '2026-03-02', clicks: 1, visitors: 0, signups: 1, purchases: 1, customers: 1, revenue: 10000n, commission: 1000n },
        { start: '2026-03-03', clicks: 0, visitors: 0, signups: 0, purchases: 0, customers: 0, revenue: 0n, commission: 0n },
      ])
      const weeks = await program.stats.program({ from: '2026-03-01', to: '2026-04-06', interval: 'week' })
      expect(weeks.buckets.map((bucket) => [bucket.start, bucket.clicks, bucket.signups, bucket.purchases, bucket.revenue])).toEqual([
        ['2026-02-23', 0, 0, 0, 0n],
        ['2026-03-02', 1, 1, 1, 10000n],
        ['2026-03-09', 0, 1, 1, 5050n],
        ['2026-03-16', 0, 0, 0, 0n],
        ['2026-03-23', 0, 0, 0, 0n],
        ['2026-03-30', 1, 0, 0, 0n],
      ])
      const months = await program.stats.affiliate('bob@example.com', { from: '2026-01-01', to: '2026-05-01', interval: 'month' })
      expect(months.buckets.map((bucket) => [bucket.start, bucket.clicks, bucket.purchases, bucket.commission])).toEqual([
        ['2026-01-01', 0, 0, 0n],
        ['2026-02-01', 0, 0, 0n],
        ['2026-03-01', 0, 1, 505n],
        ['2026-04-01', 1, 0, 0n],
      ])
      expect(months.totals).toEqual({ clicks: 1, visitors: 0, signups: 1, purchases: 1, customers: 1, revenue: 5050n, commission: 505n })
    })

    it("puts events on the project's calendar day", async () => {
      const { program, clock } = await context.program({ settings: { timeZone: 'Pacific/Auckland' } })
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      clock.set('2026-03-02T20:00:00Z') // 09:00 on 3 March in Auckland
      await program.trackClick({ referralCode: 'ANN' })
      const stats = await program.stats.program({ from: '2026-03-02', to: '2026-03-04' })
      expect(stats.timeZone).toBe('Pacific/Auckland')
      expect(stats.buckets.map((bucket) => [bucket.start, bucket.clicks])).toEqual([
        ['2026-03-02', 0],
        ['2026-03-03', 1],
      ])
      // Without from/to: the 30 days up to today, in the project's calendar.
      const recent = await program.stats.program()
      expect(recent).toMatchObject({ from: '2026-02-02', to: '2026-03-04' })
      expect(recent.buckets).toHaveLength(30)
      expect(recent.totals.clicks).toBe(1)
    })

    it('refuses bad ranges and unknown affiliates', async () => {
      const { program } = await context.program()
      await expectError(program.stats.program({ from: '2026-03-05', to: '2026-03-05' }), 'invalid_request', 'to')
      await expectError(program.stats.program({ from: '2026-02-30', to: '2026-03-05' }), 'invalid_request', 'from')
      await expectError(program.stats.program({ from: '2000-01-01', to: '2026-03-05' }), 'invalid_request', 'from')
      await expectError(program.stats.program({ interval: 'year' as 'day' }), 'invalid_request', 'interval')
      await expectError(program.stats.affiliate('nobody@example.com'), 'not_found')
    })

    it('forgets counters written by a transaction that rolls back', async () => {
      const { program, storage } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      await expect(
        storage.transaction(async (tx) => {
          await tx.tracking.addDaily(program.projectId, ann.id, '2026-01-01', { clicks: 5, revenue: 100n })
          expect(await markVisitor(tx, program.projectId, ann.id, '2026-01-01', 'v')).toBe(true)
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(await storage.tracking.daily(program.projectId, { from: '2026-01-01', to: '2026-01-02' })).toEqual([])
      expect(await markVisitor(storage, program.projectId, ann.id, '2026-01-01', 'v')).toBe(true)
    })

    it.skipIf(!context.adapter.multiConnection)('adds concurrent counter deltas and marks a visitor-day once under concurrency (several connections)', async () => {
      const { program, storage } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      await Promise.all(Array.from({ length: 20 }, () => storage.tracking.addDaily(program.projectId, ann.id, '2026-01-01', { clicks: 1, commission: 3n })))
      const marks = await Promise.all(Array.from({ length: 10 }, () => markVisitor(storage, program.projectId, ann.id, '2026-01-01', 'same')))
      expect(marks.filter(Boolean)).toHaveLength(1)
      expect(await storage.tracking.daily(program.projectId, { from: '2026-01-01', to: '2026-01-02' })).toEqual([
        { day: '2026-01-01', clicks: 20, visitors: 0, signups: 0, purchases: 0, customers: 0, revenue: 0n, commission: 60n },
      ])
    })
  })

  describe('tracking: attribution settings', () => {
    async function twoAffiliates(model: 'first_click' | 'last_click', windowDays = 30) {
      const made = await context.program({ settings: { attribution: { model, windowDays } } })
      const ann = await made.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const bob = await made.program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
      return { ...made, ann, bob }
    }

    it('first click: the affiliate who brought the customer keeps it when another code shows up inside the window', async () => {
      const { program, clock, ann } = await twoAffiliates('first_click')
      await program.referrals.create({ email: 'cus@example.com', referralCode: 'ANN' })
      clock.advance({ days: 5 })
      const { attribution } = await program.conversions.create({ type: 'purchase', referralCode: 'BOB', email: 'cus@example.com', baseValue: 10, reference: 'p1' })
      expect(attribution).toEqual({ affiliateId: ann.id, matchedBy: 'email' })
      expect((await program.referrals.get('cus@example.com')).affiliateId).toBe(ann.id)
      expect((await program.affiliates.get('bob@example.com')).signups).toBe(0)
    })

    it('last click: a newer referral inside the window takes the customer over', async () => {
      const { program, clock, ann, bob } = await twoAffiliates('last_click')
      await program.referrals.create({ email: 'cus@example.com', referralCode: 'ANN' })
      clock.advance({ days: 5 })
      const { attribution } = await program.conversions.create({ type: 'purchase', referralCode: 'BOB', email: 'cus@example.com', baseValue: 10, reference: 'p1' })
      expect(attribution).toEqual({ affiliateId: bob.id, matchedBy: 'referral_code' })
      expect((await program.referrals.get('cus@example.com')).affiliateId).toBe(bob.id)
      expect((await program.affiliates.get('ann@example.com')).signups).toBe(0)
      expect((await program.affiliates.get('bob@example.com')).signups).toBe(1)
      // After the first purchase the settings step aside: the fields sent decide, as without settings.
      const renewal = await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'cus@example.com', baseValue: 10, reference: 'p2' })
      expect(renewal.attribution).toEqual({ affiliateId: ann.id, matchedBy: 'referral_code' })
      expect((await program.referrals.get('cus@example.com')).affiliateId).toBe(bob.id)
    })

    it('refuses a first purchase credited by code or email after the window, with the reason, and records nothing', async () => {
      const { program, clock, ann } = await twoAffiliates('first_click', 30)
      await program.referrals.create({ email: 'cus@example.com', referralCode: 'ANN' })
      clock.advance({ days: 31 })
      const before = await snapshot(program)
      const refused = await program.conversions.create({ type: 'purchase', email: 'cus@example.com', baseValue: 10, reference: 'late' }).catch((error: unknown) => error)
      expect(refused).toMatchObject({ code: 'invalid_request', field: 'email' })
      expect((refused as Error).message).toMatch(/referral of cus@example.com ended on 2026-01-31 \(30-day attribution window\)/)
      await expectError(program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'cus@example.com', baseValue: 10, reference: 'late' }), 'invalid_request', 'email')
      expect(await snapshot(program)).toBe(before)
      // An explicit affiliate_id is the caller's choice and still credits.
      const direct = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'cus@example.com', baseValue: 10, reference: 'late' })
      expect(direct.attribution).toEqual({ affiliateId: ann.id, matchedBy: 'affiliate_id' })
    })

    it('lets another code take a referral over once its window ended, even under first click', async () => {
      const { program, clock, bob } = await twoAffiliates('first_click', 30)
      await program.referrals.create({ email: 'cus@example.com', referralCode: 'ANN' })
      clock.advance({ days: 40 })
      const { attribution } = await program.conversions.create({ type: 'purchase', referralCode: 'BOB', email: 'cus@example.com', baseValue: 10, reference: 'p1' })
      expect(attribution).toEqual({ affiliateId: bob.id, matchedBy: 'referral_code' })
      expect((await program.referrals.get('cus@example.com')).affiliateId).toBe(bob.id)
    })

    it('without attribution settings, conversions are credited as before and nothing expires', async () => {
      const { program, clock } = await context.program()
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
      await program.referrals.create({ email: 'cus@example.com', referralCode: 'ANN' })
      clock.advance({ days: 400 })
      const { attribution } = await program.conversions.create({ type: 'purchase', referralCode: 'BOB', email: 'cus@example.com', baseValue: 10, reference: 'p1' })
      expect(attribution).toEqual({ affiliateId: bob.id, matchedBy: 'referral_code' })
      expect((await program.conversions.create({ type: 'purchase', email: 'cus@example.com', baseValue: 10, reference: 'p2' })).attribution.matchedBy).toBe('email')
    })

    it('browser signups create the referred user and never move a known one, under either model, in or after the window', async () => {
      const first = await twoAffiliates('first_click', 30)
      expect(await first.program.tracking.browserSignup({ email: 'Cus@Example.com', referralCode: 'ann' })).toBe('created')
      expect(await first.program.tracking.browserSignup({ email: 'cus@example.com', referralCode: 'BOB' })).toBe('unchanged')
      expect((await first.program.referrals.get('cus@example.com')).affiliateId).toBe(first.ann.id)
      first.clock.advance({ days: 30 })
      expect(await first.program.tracking.browserSignup({ email: 'cus@example.com', referralCode: 'BOB' })).toBe('unchanged')
      expect((await first.program.referrals.get('cus@example.com')).affiliateId).toBe(first.ann.id)

      const last = await twoAffiliates('last_click', 30)
      await last.program.tracking.browserSignup({ email: 'cus@example.com', referralCode: 'ANN' })
      expect(await last.program.tracking.browserSignup({ email: 'cus@example.com', referralCode: 'BOB' })).toBe('unchanged')
      // A customer who signed up directly (no affiliate) stays direct.
      await last.program.referrals.create({ email: 'direct@example.com' })
      expect(await last.program.tracking.browserSignup({ email: 'direct@example.com', referralCode: 'BOB' })).toBe('unchanged')
      expect((await last.program.referrals.get('direct@example.com')).affiliateId).toBeNull()
      expect((await last.program.affiliates.get('bob@example.com')).signups).toBe(0)
      expect((await last.program.affiliates.get('ann@example.com')).signups).toBe(1)
      await expectError(last.program.tracking.browserSignup({ email: 'cus@example.com', referralCode: 'NOPE' }), 'not_found', 'referralCode')
      await expectError(last.program.tracking.browserSignup({ email: 'not-an-email', referralCode: 'ANN' }), 'invalid_request', 'email')
    })
  })
}
