// Embed tokens (docs/embed.md): found or enrolled, signed for one affiliate of one project, refused
// once expired, tampered with or the affiliate blocked.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError } from './helpers.js'

const COMMISSION = { purchase: { type: 'percentage' as const, rate: '20' } }

export function embedCases(context: CaseContext): void {
  describe('embed tokens', () => {
    it('enrolls a new user in its group, finds an existing one, and opens only its own dashboard', async () => {
      const { program, clock } = await context.program({ settings: { subPrograms: { creators: { commission: COMMISSION } } } })
      const bob = await program.affiliates.create({ email: 'bob@example.com', name: 'Bob' })
      const ann = await program.embed.createToken({ email: 'Ann@Example.com', name: 'Ann', group: 'creators', ttlSeconds: 600, hide: ['payouts'] })
      expect(ann.enrolled).toBe(true)
      expect(ann.expiresAt.getTime()).toBe(Math.floor(clock.now().getTime() / 1000) * 1000 + 600_000)
      const enrolled = await program.affiliates.get('ann@example.com')
      expect(enrolled).toMatchObject({ id: ann.affiliateId, name: 'Ann', partnerSlug: 'creators', status: 'active' })

      const again = await program.embed.createToken({ email: 'ann@example.com', name: 'Another name', group: null })
      expect(again).toMatchObject({ affiliateId: ann.affiliateId, enrolled: false })
      expect((await program.affiliates.get(ann.affiliateId)).name).toBe('Ann')
      expect(again.expiresAt.getTime() - clock.now().getTime()).toBeGreaterThan(3599_000)

      const opened = await program.embed.open(ann.token)
      expect(opened).toMatchObject({ affiliate: { id: ann.affiliateId, email: 'ann@example.com' }, hide: ['payouts'] })
      const forBob = await program.embed.createToken({ email: 'bob@example.com' })
      expect(forBob).toMatchObject({ affiliateId: bob.id, enrolled: false })
      expect(await program.embed.open(forBob.token)).toMatchObject({ affiliate: { id: bob.id }, hide: [] })
      expect((await program.affiliates.list()).total).toBe(2)
    })

    it('refuses a tampered, foreign or expired token, and a blocked affiliate', async () => {
      const { program, clock } = await context.program()
      const other = (await context.program()).program
      const { token, affiliateId } = await program.embed.createToken({ email: 'ann@example.com', ttlSeconds: 60 })
      const [head, signature] = [token.slice(0, token.lastIndexOf('.') + 1), token.slice(token.lastIndexOf('.') + 1)]
      expect(await program.embed.open(`${head}${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`)).toEqual({ refused: 'invalid' })
      // The same affiliate id with another expiry or other hidden sections: the signature no longer holds.
      expect(await program.embed.open(token.replace(/^ake_(\d+)\.(\d+)\./, (_, id: string, at: string) => `ake_${id}.${Number(at) + 3600}.`))).toEqual({ refused: 'invalid' })
      expect(await program.embed.open(token.replace(/\.0\./, '.1.'))).toEqual({ refused: 'invalid' })
      expect(await program.embed.open(null)).toEqual({ refused: 'invalid' })
      expect(await program.embed.open('ak_' + token)).toEqual({ refused: 'invalid' })
      // Another project with an affiliate of the same id cannot be opened with it.
      await other.affiliates.create({ email: 'eve@example.com' })
      expect(await other.embed.open(token)).toEqual({ refused: 'invalid' })

      expect(await program.embed.open(token)).toMatchObject({ affiliate: { id: affiliateId } })
      clock.advance({ seconds: 61 })
      expect(await program.embed.open(token)).toEqual({ refused: 'expired' })

      const fresh = await program.embed.createToken({ email: 'ann@example.com' })
      await program.affiliates.update(affiliateId, { status: 'blocked' })
      expect(await program.embed.open(fresh.token)).toEqual({ refused: 'blocked' })
      await expectError(program.embed.createToken({ email: 'ann@example.com' }), 'conflict')
      await program.affiliates.delete(affiliateId)
      expect(await program.embed.open(fresh.token)).toEqual({ refused: 'invalid' })
    })

    it('refuses bad input and changes nothing', async () => {
      const { program } = await context.program()
      await expectError(program.embed.createToken({ email: 'not an email' }), 'invalid_request', 'email')
      await expectError(program.embed.createToken({ email: 'ann@example.com', ttlSeconds: 86_401 }), 'invalid_request', 'ttlSeconds')
      await expectError(program.embed.createToken({ email: 'ann@example.com', ttlSeconds: 59 }), 'invalid_request', 'ttlSeconds')
      await expectError(program.embed.createToken({ email: 'ann@example.com', group: 'nobody' }), 'invalid_request', 'group')
      await expectError(program.embed.createToken({ email: 'ann@example.com', hide: ['everything' as 'links'] }), 'invalid_request')
      expect((await program.affiliates.list()).total).toBe(0)
    })

    it("finds the user by the host app's id, keeps it on an affiliate found by email, and enrolls with both", async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const linked = await program.embed.createToken({ email: 'ann@example.com', externalId: 'user_1' })
      expect(linked).toMatchObject({ affiliateId: ann.id, enrolled: false })
      expect((await program.affiliates.get(ann.id)).externalId).toBe('user_1')
      // The id alone finds Ann, whatever email the host now has for its user.
      expect(await program.embed.createToken({ externalId: 'user_1', email: 'ann.new@example.com' })).toMatchObject({ affiliateId: ann.id, enrolled: false })
      const bob = await program.embed.createToken({ email: 'bob@example.com', externalId: 'user_2' })
      expect(bob.enrolled).toBe(true)
      expect(await program.affiliates.get(bob.affiliateId)).toMatchObject({ email: 'bob@example.com', externalId: 'user_2' })
      await expectError(program.embed.createToken({ externalId: 'user_3' }), 'not_found', 'externalId')
      await expectError(program.embed.createToken({ email: 'ann@example.com', externalId: 'user_9' }), 'conflict', 'externalId')
      await expectError(program.embed.createToken({}), 'invalid_request', 'email')
      await expectError(program.affiliates.update(bob.affiliateId, { externalId: 'user_1' }), 'conflict', 'externalId')
      // Another project may use the same ids.
      const other = (await context.program()).program
      expect((await other.embed.createToken({ email: 'cy@example.com', externalId: 'user_1' })).enrolled).toBe(true)
      expect((await program.affiliates.list()).total).toBe(2)
    })

    it('enrolls one affiliate when the same new user asks eight times at once', async () => {
      const { program } = await context.program()
      const tokens = await Promise.all(Array.from({ length: 8 }, () => program.embed.createToken({ email: 'cy@example.com', externalId: 'user_cy' })))
      expect(new Set(tokens.map((token) => token.affiliateId)).size).toBe(1)
      expect(tokens.filter((token) => token.enrolled)).toHaveLength(1)
      expect((await program.affiliates.list()).total).toBe(1)
    })
  })
}
