// Projects, API keys and tenancy (docs/settings.md "Projects and keys"): nothing crosses projects.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, snapshot } from './helpers.js'

export function tenancyCases(context: CaseContext): void {
  describe('API keys', () => {
    it('returns the full key once, stores only its hash, verifies, and revokes', async () => {
      const { program, storage } = await context.program()
      const { key, record } = await program.keys.create({ name: 'ci', scopes: ['affiliates:read'] })
      expect(key).toMatch(/^rgk_[0-9A-Za-z]{40,}$/)
      expect(record).toMatchObject({ name: 'ci', prefix: key.slice(0, 8), scopes: ['affiliates:read'], revokedAt: null })
      expect(JSON.stringify(await program.keys.list())).not.toContain(key)
      const stored = await storage.apiKeys.all(program.projectId, {})
      expect(JSON.stringify(stored)).not.toContain(key.slice(8))
      expect(await program.verifyApiKey(key)).toEqual({ projectId: program.projectId, keyId: record.id, scopes: ['affiliates:read'] })
      expect(await program.verifyApiKey(`${key}x`)).toBeNull()
      expect(await program.verifyApiKey('rgk_short')).toBeNull()
      expect(await program.verifyApiKey('')).toBeNull()
      await program.keys.revoke(record.id)
      expect(await program.verifyApiKey(key)).toBeNull()
      await expectError(program.keys.revoke(record.id), 'not_found')
      const full = await program.keys.create()
      expect(full.record.scopes).toEqual(['*'])
      await expectError(program.keys.create({ scopes: ['everything' as never] }), 'invalid_request', 'scopes.0')
    })

    it('ensures a given key exists exactly once', async () => {
      const { program } = await context.program()
      const key = `rgk_${'a'.repeat(43)}${Date.now()}`.slice(0, 47)
      const first = await program.keys.ensure(key)
      const second = await program.keys.ensure(key)
      expect(second.id).toBe(first.id)
      expect(await program.verifyApiKey(key)).toMatchObject({ projectId: program.projectId, scopes: ['*'] })
      const { program: other } = await context.program()
      await expectError(other.keys.ensure(key), 'not_found')
    })

    it('ensures one key from calls at once (two servers starting together with the same key): each answers the one record', async () => {
      const { program } = await context.program()
      const key = `rgk_${'b'.repeat(43)}${Date.now()}`.slice(0, 47)
      const ensured = await Promise.all(Array.from({ length: 16 }, () => program.keys.ensure(key)))
      expect(new Set(ensured.map((view) => view.id)).size).toBe(1)
      expect((await program.keys.list()).filter((view) => view.id === ensured[0]!.id)).toHaveLength(1)
    })
  })

  describe('tenancy', () => {
    it('never shows or changes another project rows, by id or email', async () => {
      const { program: a } = await context.program()
      const { program: b } = await context.program()
      const affiliate = await b.affiliates.create({ email: 'b@example.com', referralCode: 'BCODE' })
      const referral = await b.referrals.create({ email: 'rb@example.com', affiliateId: affiliate.id })
      const { conversion } = await b.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, reference: 'ch_b' })
      const coupon = await b.coupons.create({ affiliateId: affiliate.id, code: 'BCOUPON' })
      const payout = await b.payouts.create({ affiliateId: affiliate.id, amount: 1 })
      const { record: key } = await b.keys.create()
      const before = await snapshot(b)

      await expectError(a.affiliates.get(affiliate.id), 'not_found')
      await expectError(a.affiliates.get('b@example.com'), 'not_found')
      await expectError(a.affiliates.update(affiliate.id, { status: 'inactive' }), 'not_found')
      await expectError(a.affiliates.delete('b@example.com'), 'not_found')
      await expectError(a.trackClick({ referralCode: 'BCODE' }), 'not_found')
      await expectError(a.referrals.get(referral.id), 'not_found')
      await expectError(a.referrals.get('rb@example.com'), 'not_found')
      await expectError(a.referrals.update('rb@example.com', { affiliateId: null }), 'not_found')
      await expectError(a.referrals.create({ email: 'n@example.com', affiliateId: affiliate.id }), 'not_found')
      await expectError(a.conversions.get(conversion.id), 'not_found')
      await expectError(a.conversions.update(conversion.id, { paid: true }), 'not_found')
      await expectError(a.conversions.delete(conversion.id), 'not_found')
      await expectError(a.conversions.create({ type: 'signup', affiliateId: affiliate.id }), 'not_found')
      await expectError(a.conversions.create({ type: 'signup', referralCode: 'BCODE' }), 'not_found')
      await expectError(a.conversions.create({ type: 'signup', email: 'rb@example.com' }), 'not_found')
      await expectError(a.conversions.create({ type: 'signup', couponCodeUsed: 'BCOUPON' }), 'not_found')
      await expectError(a.coupons.get(coupon.id), 'not_found')
      await expectError(a.coupons.update(coupon.id, { code: 'MINE' }), 'not_found')
      await expectError(a.coupons.delete(coupon.id), 'not_found')
      await expectError(a.coupons.create({ affiliateId: affiliate.id, code: 'STEAL' }), 'not_found')
      await expectError(a.payouts.get(payout.id), 'not_found')
      await expectError(a.payouts.create({ affiliateId: affiliate.id, amount: 1 }), 'not_found')
      await expectError(a.keys.revoke(key.id), 'not_found')
      expect((await a.affiliates.list()).total).toBe(0)
      expect((await a.conversions.list({ affiliateId: affiliate.id })).total).toBe(0)
      expect((await a.referrals.list()).total).toBe(0)
      expect((await a.coupons.list()).total).toBe(0)
      expect((await a.payouts.list()).total).toBe(0)
      expect(await a.keys.list()).toEqual([])
      expect(await snapshot(b)).toBe(before)

      // The same email, code and reference are free in project A.
      const mine = await a.affiliates.create({ email: 'b@example.com', referralCode: 'BCODE' })
      await a.coupons.create({ affiliateId: mine.id, code: 'BCOUPON' })
      expect((await a.conversions.create({ type: 'signup', affiliateId: mine.id, reference: 'ch_b' })).duplicate).toBe(false)
    })

    it('serves other projects of the same storage through program.project(id)', async () => {
      const { program } = await context.program()
      const created = await program.projects.create({ name: `side-${Date.now()}-${Math.random()}`, settings: { currency: 'EUR' } })
      const side = program.project(created.id)
      const affiliate = await side.affiliates.create({ email: 'side@example.com' })
      expect((await side.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })).conversion.currency).toBe('EUR')
      expect((await program.affiliates.list()).total).toBe(0)
      await expectError(program.project('proj_missing').affiliates.list(), 'not_found')
      await expectError(program.projects.create({ name: created.name }), 'conflict', 'name')
    })
  })
}
