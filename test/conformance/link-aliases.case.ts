// Link aliases: an affiliate's other link tokens resolve wherever a referral code does.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError } from './helpers.js'

export function linkAliasCases(context: CaseContext): void {
  describe('link aliases', () => {
    it('resolves an alias, case-insensitively, for clicks, visits, browser signups and referrals', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann-new' })
      expect(await program.affiliates.addAlias(ann.id, 'Ann-Old')).toEqual({ alias: 'Ann-Old', created: true })
      expect(await program.affiliates.addAlias('ann@example.com', 'ann-old')).toEqual({ alias: 'ann-old', created: false })
      expect(await program.affiliates.addAlias(ann.id, 'ANN-NEW')).toEqual({ alias: 'ANN-NEW', created: false })
      expect(await program.affiliates.aliases(ann.id)).toEqual(['Ann-Old'])

      expect((await program.trackClick({ referralCode: 'ANN-OLD' })).affiliateId).toBe(ann.id)
      const visit = await program.tracking.visit({ referralCode: 'ann-old', visitor: (day) => `v1:${day}` })
      // The visit names the affiliate by its referral code: the cookie carries the code, not the alias.
      expect(visit).toEqual({ affiliate: { id: ann.id, referralCode: 'ann-new' }, counted: true })
      expect((await program.referrals.create({ email: 'cat@example.com', referralCode: 'ann-old' })).affiliateId).toBe(ann.id)
      await program.tracking.browserSignup({ email: 'dan@example.com', referralCode: 'Ann-Old' })
      expect((await program.referrals.get('dan@example.com')).affiliateId).toBe(ann.id)
      expect((await program.affiliates.get(ann.id)).clicks).toBe(2)
    })

    it('keeps a token naming one affiliate: an alias taken by a code or alias is refused, and a code taken by an alias', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
      await program.affiliates.addAlias(ann.id, 'old-ann')
      await expectError(program.affiliates.addAlias(bob.id, 'OLD-ANN'), 'conflict', 'alias')
      await expectError(program.affiliates.addAlias(bob.id, 'ANN'), 'conflict', 'alias')
      await expectError(program.affiliates.create({ email: 'cy@example.com', referralCode: 'Old-Ann' }), 'conflict', 'referralCode')
      await expectError(program.affiliates.update(bob.id, { referralCode: 'old-ann' }), 'conflict', 'referralCode')
      await expectError(program.affiliates.addAlias(bob.id, 'no spaces'), 'invalid_request', 'alias')
      await expectError(program.affiliates.addAlias(999_999, 'free-token'), 'not_found')
      expect(await program.affiliates.aliases(bob.id)).toEqual([])
      expect((await program.affiliates.list()).total).toBe(2)
    })

    it('is scoped to its project and deleted with its affiliate', async () => {
      const { program } = await context.program()
      const other = (await context.program()).program
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      await program.affiliates.addAlias(ann.id, 'shared-token')
      await expectError(other.trackClick({ referralCode: 'shared-token' }), 'not_found', 'referralCode')
      const bob = await other.affiliates.create({ email: 'bob@example.com' })
      expect((await other.affiliates.addAlias(bob.id, 'shared-token')).created).toBe(true)
      await program.affiliates.delete(ann.id)
      await expectError(program.trackClick({ referralCode: 'shared-token' }), 'not_found', 'referralCode')
      const cy = await program.affiliates.create({ email: 'cy@example.com', referralCode: 'shared-token' })
      expect((await program.trackClick({ referralCode: 'shared-token' })).affiliateId).toBe(cy.id)
      expect((await other.trackClick({ referralCode: 'shared-token' })).affiliateId).toBe(bob.id)
    })
  })
}
