// Applications (docs/onboarding.md): one affiliate per email however often and however
// concurrently it applies, the application record stored as sent, approve and reject with their
// events in the same transaction, exactly once; setting a pending affiliate active approves it.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError, recordAllEvents, recordedEvents } from './helpers.js'

const COMMISSION = { purchase: { type: 'percentage' as const, rate: 30 } }
const answers = { name: 'Ann Apply', website: 'https://ann.example', promotion: 'A weekly newsletter', fields: { audience: '10k', discloses: true } }

export function applicationCases(context: CaseContext): void {
  describe('applications', () => {
    it('a review application makes one pending affiliate with its answers and affiliate.applied; again with the email, nothing', async () => {
      const { program, storage } = await context.program({ settings: { subPrograms: { creators: { commission: COMMISSION, signup: 'review' } } } })
      await recordAllEvents(program)
      const first = await program.applications.apply({ email: 'Ann@Example.com', ...answers, partnerSlug: 'creators', termsAccepted: true, signup: 'review' })
      expect(first.created).toBe(true)
      expect(first.affiliate).toMatchObject({ email: 'ann@example.com', name: 'Ann Apply', status: 'pending', partnerSlug: 'creators' })
      const stored = await program.affiliates.get('ann@example.com')
      expect(stored.application).toMatchObject({ website: 'https://ann.example', promotion: 'A weekly newsletter', fields: { audience: '10k', discloses: true }, decidedAt: null, rejectionReason: null })
      expect(stored.application!.termsAcceptedAt).toBe(stored.application!.appliedAt)
      const again = await program.applications.apply({ email: 'ann@example.com', ...answers, name: 'Someone Else', signup: 'open' })
      expect(again.created).toBe(false)
      expect(await program.affiliates.get('ann@example.com')).toMatchObject({ name: 'Ann Apply', status: 'pending' })
      expect((await program.affiliates.list()).total).toBe(1)
      const events = await recordedEvents(storage, program)
      expect(events.map((event) => event.type)).toEqual(['affiliate.applied'])
      expect(events[0]!.body).toMatchObject({
        affiliate: { email: 'ann@example.com' },
        application: { status: 'pending', name: 'Ann Apply', partner_slug: 'creators', website: 'https://ann.example', fields: { audience: '10k', discloses: true } },
      })
      expect(await program.applications.signupOf('creators')).toBe('review')
      expect(await program.applications.signupOf('nope')).toBeNull()
    })

    it('an open application is active at once; a sub-program that does not exist is refused', async () => {
      const { program } = await context.program()
      expect((await program.applications.apply({ email: 'open@example.com', ...answers, signup: 'open' })).affiliate.status).toBe('active')
      await expectError(program.applications.apply({ email: 'x@example.com', ...answers, partnerSlug: 'ghost', signup: 'review' }), 'invalid_request', 'partnerSlug')
      await expectError(program.applications.apply({ email: 'not an email', ...answers, signup: 'review' }), 'invalid_request', 'email')
      expect((await program.affiliates.list()).total).toBe(1)
    })

    it('approve and reject: once each, with their events; other states are refused', async () => {
      const { program, storage } = await context.program()
      const ann = (await program.applications.apply({ email: 'ann@example.com', ...answers, signup: 'review' })).affiliate
      const bob = (await program.applications.apply({ email: 'bob@example.com', ...answers, signup: 'review' })).affiliate
      await recordAllEvents(program)
      const approved = await program.applications.approve(ann.id)
      expect(approved.status).toBe('active')
      expect(approved.application!.decidedAt).not.toBeNull()
      expect((await program.applications.approve('ann@example.com')).status).toBe('active')
      await expectError(program.applications.reject(ann.id, { reason: 'late' }), 'conflict', 'status')
      const rejected = await program.applications.reject('bob@example.com', { reason: '  Not a fit for now  ' })
      expect(rejected).toMatchObject({ status: 'blocked', application: { rejectionReason: 'Not a fit for now' } })
      await expectError(program.applications.approve(bob.id), 'conflict', 'status')
      await expectError(program.applications.reject(9_999_999), 'not_found')
      const events = await recordedEvents(storage, program)
      expect(events.map((event) => event.type)).toEqual(['affiliate.approved', 'affiliate.rejected'])
      expect(events[1]!.body).toMatchObject({ affiliate: { email: 'bob@example.com' }, application: { status: 'blocked', reason: 'Not a fit for now' } })
    })

    it('setting a pending affiliate active approves it; an owner-created pending one keeps a rejection reason', async () => {
      const { program, storage } = await context.program()
      await recordAllEvents(program)
      const ann = await program.affiliates.create({ email: 'ann@example.com', status: 'pending' })
      const cy = await program.affiliates.create({ email: 'cy@example.com', status: 'pending' })
      expect((await program.affiliates.update(ann.id, { status: 'active', name: 'Ann' })).status).toBe('active')
      expect((await program.affiliates.update(ann.id, { status: 'active' })).name).toBe('Ann')
      expect((await program.applications.reject(cy.id, { reason: 'spam' })).application).toMatchObject({ rejectionReason: 'spam', website: null })
      expect((await recordedEvents(storage, program)).map((event) => event.type)).toEqual(['affiliate.approved', 'affiliate.rejected'])
    })

    it('concurrent applications with one email make one affiliate; concurrent approvals one event', async () => {
      const { program, storage } = await context.program()
      await recordAllEvents(program)
      const results = await Promise.all(Array.from({ length: 6 }, (_, n) => program.applications.apply({ email: 'race@example.com', ...answers, name: `Racer ${n}`, signup: 'review' })))
      expect(results.filter((result) => result.created)).toHaveLength(1)
      expect(new Set(results.map((result) => result.affiliate.id)).size).toBe(1)
      await Promise.all(Array.from({ length: 4 }, () => program.applications.approve('race@example.com')))
      expect((await recordedEvents(storage, program)).map((event) => event.type)).toEqual(['affiliate.applied', 'affiliate.approved'])
    })
  })
}
