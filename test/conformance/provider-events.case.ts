// The provider-event log of the storage port: one row per (project, provider, event id), claims
// that only one caller wins, filters, waiting lists in payment order, merged links, project isolation.
import { describe, expect, it } from 'vitest'
import type { ProviderEventRecording } from '../../src/core/ports/storage.js'
import type { ProviderEvent } from '../../src/core/model/types.js'
import type { CaseContext } from './harness.js'

type NewProviderEvent = Omit<ProviderEvent, 'id'>

function event(projectId: string, overrides: Partial<NewProviderEvent> = {}): NewProviderEvent {
  const at = new Date('2026-01-01T00:00:00Z')
  return {
    projectId,
    provider: 'stripe',
    eventId: 'evt_1',
    type: 'invoice.paid',
    reference: 'in_1',
    status: 'processing',
    detail: null,
    conversionId: null,
    refundAmount: null,
    waitingFor: null,
    mapped: { actions: [] },
    occurredAt: at,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  }
}

export function providerEventCases(context: CaseContext): void {
  describe('storage: provider events', () => {
    it('stores an event once per (provider, event id); the same id of another provider or project is another event', async () => {
      const { program, storage } = await context.program()
      const other = await context.program()
      const first = await storage.providerEvents.insert(event(program.projectId))
      expect(first.inserted).toBe(true)
      const again = await storage.providerEvents.insert(event(program.projectId, { type: 'changed' }))
      expect(again).toMatchObject({ inserted: false, existing: { eventId: 'evt_1', type: 'invoice.paid' } })
      expect((await storage.providerEvents.insert(event(program.projectId, { provider: 'paddle' }))).inserted).toBe(true)
      expect((await storage.providerEvents.insert(event(other.program.projectId))).inserted).toBe(true)
      const id = first.inserted ? first.event.id : 0
      expect(await storage.providerEvents.get(other.program.projectId, id)).toBeNull()
      expect(await program.providerEvents.get(id)).toMatchObject({ id, eventId: 'evt_1', status: 'processing' })
      await expect(other.program.providerEvents.get(id)).rejects.toMatchObject({ code: 'not_found' })
      expect((await program.providerEvents.list()).total).toBe(2)
    })

    it('claims a waiting event for one caller only, and a processing one only when stale', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const inserted = await storage.providerEvents.insert(event(projectId, { status: 'waiting', waitingFor: 'customer:cus_1' }))
      const id = inserted.inserted ? inserted.event.id : 0
      const now = new Date('2026-01-01T00:05:00Z')
      const claims = await Promise.all([1, 2, 3].map(() => storage.providerEvents.claim(projectId, id, { status: 'waiting' }, now)))
      expect(claims.filter(Boolean)).toHaveLength(1)
      expect(await storage.providerEvents.get(projectId, id)).toMatchObject({ status: 'processing', updatedAt: now })
      expect(await storage.providerEvents.claim(projectId, id, { status: 'processing', updatedBefore: now }, now)).toBe(false)
      const later = new Date('2026-01-01T00:10:00Z')
      expect(await storage.providerEvents.claim(projectId, id, { status: 'processing', updatedBefore: later }, later)).toBe(true)
    })

    it('claims a new event in one step: inserted, then left as it is, taken over only once stale, one caller at a time', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes))
      const claim = (minutes: number, overrides: Partial<NewProviderEvent> = {}) =>
        storage.providerEvents.claimNew(event(projectId, { createdAt: at(minutes), updatedAt: at(minutes), ...overrides }), at(minutes - 1))
      const first = await claim(0)
      expect(first).toMatchObject({ claimed: true, event: { eventId: 'evt_1', status: 'processing', updatedAt: at(0) } })
      const id = first.claimed ? first.event.id : 0
      // Fresh: left to the one applying it.
      expect(await claim(0, { type: 'changed' })).toMatchObject({ claimed: false, existing: { id, type: 'invoice.paid', status: 'processing' } })
      // Stale (updated before staleBefore): one of three callers takes it over.
      const takeovers = await Promise.all([1, 2, 3].map(() => claim(5)))
      expect(takeovers.filter((result) => result.claimed)).toMatchObject([{ event: { id, status: 'processing', updatedAt: at(5), createdAt: at(0) } }])
      // Saved with an outcome: never taken over.
      await storage.providerEvents.update(projectId, id, { status: 'applied', updatedAt: at(6) })
      expect(await claim(30)).toMatchObject({ claimed: false, existing: { id, status: 'applied' } })
      // Another provider's event of the same id is another event.
      expect(await claim(30, { provider: 'paddle' })).toMatchObject({ claimed: true, event: { provider: 'paddle' } })
      expect((await storage.providerEvents.list(projectId, { limit: 10, offset: 0 })).total).toBe(2)
    })

    it('claims a waiting event for one caller, with the mark of the key it waits for as it was claimed', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const inserted = await storage.providerEvents.insert(event(projectId, { status: 'waiting', waitingFor: 'payment:in_1' }))
      const unmarked = await storage.providerEvents.insert(event(projectId, { eventId: 'evt_2', status: 'waiting', waitingFor: 'payment:in_2' }))
      const id = inserted.inserted ? inserted.event.id : 0
      await storage.providerEvents.saveLinks([{ projectId, provider: 'stripe', kind: 'woken', externalId: 'payment:in_1', data: { mark: 'm1', at: '2026-01-01T00:00:00.000Z' } }])
      // Another provider's mark of the same key is not this event's.
      await storage.providerEvents.saveLinks([{ projectId, provider: 'paddle', kind: 'woken', externalId: 'payment:in_2', data: { mark: 'other' } }])
      const now = new Date('2026-01-01T00:05:00Z')
      const claims = await Promise.all([1, 2, 3].map(() => storage.providerEvents.claimWaiting(projectId, id, now)))
      expect(claims.filter((claim) => claim !== null)).toEqual([{ waitingFor: 'payment:in_1', mark: 'm1' }])
      expect(await storage.providerEvents.get(projectId, id)).toMatchObject({ status: 'processing', updatedAt: now })
      expect(await storage.providerEvents.claimWaiting(projectId, unmarked.inserted ? unmarked.event.id : 0, now)).toEqual({ waitingFor: 'payment:in_2', mark: null })
      const other = await context.program()
      expect(await storage.providerEvents.claimWaiting(other.program.projectId, id, now)).toBeNull()
    })

    it("saves an event's outcome and its links in one call, the links merged into the saved ones", async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const inserted = await storage.providerEvents.insert(event(projectId))
      const id = inserted.inserted ? inserted.event.id : 0
      const link = (externalId: string, data: Record<string, string | null>) => ({ projectId, provider: 'stripe', kind: 'woken', externalId, data })
      await storage.providerEvents.saveLinks([link('payment:in_1', { mark: 'm1', at: '2026-01-01T00:00:00.000Z' })])
      const at = new Date('2026-01-01T00:05:00Z')
      const saved = await storage.providerEvents.saveOutcome(projectId, id, { status: 'waiting', detail: 'waiting for the payment', waitingFor: 'payment:in_1', updatedAt: at }, [
        link('payment:in_1', { waited: 'yes' }),
        link('payment:in_2', { mark: 'm2' }),
      ])
      expect(saved.event).toMatchObject({ id, status: 'waiting', detail: 'waiting for the payment', waitingFor: 'payment:in_1', updatedAt: at, mapped: { actions: [] } })
      expect([...saved.links].sort((a, b) => a.externalId.localeCompare(b.externalId))).toEqual([
        link('payment:in_1', { mark: 'm1', at: '2026-01-01T00:00:00.000Z', waited: 'yes' }),
        link('payment:in_2', { mark: 'm2' }),
      ])
      expect(await storage.providerEvents.get(projectId, id)).toMatchObject({ status: 'waiting', updatedAt: at })
      expect(await storage.providerEvents.saveOutcome(projectId, id, { status: 'applied' }, [])).toMatchObject({ event: { status: 'applied' }, links: [] })
      const other = await context.program()
      expect(await storage.providerEvents.saveOutcome(other.program.projectId, id, { status: 'ignored' }, [])).toEqual({ event: null, links: [] })
      expect(await storage.providerEvents.get(projectId, id)).toMatchObject({ status: 'applied' })
    })

    it('lists newest first with filters, and waiting events oldest payment first', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const day = (n: number) => new Date(Date.UTC(2026, 0, n))
      await storage.providerEvents.insert(event(projectId, { eventId: 'a', reference: 'in_a', status: 'applied', createdAt: day(1) }))
      await storage.providerEvents.insert(event(projectId, { eventId: 'b', reference: 'in_b', status: 'waiting', waitingFor: 'customer:c', occurredAt: day(9), createdAt: day(2) }))
      await storage.providerEvents.insert(event(projectId, { eventId: 'c', reference: 'in_c', status: 'waiting', waitingFor: 'customer:c', occurredAt: day(5), createdAt: day(3) }))
      await storage.providerEvents.insert(event(projectId, { eventId: 'd', provider: 'paddle', status: 'ignored', createdAt: day(4) }))
      expect((await program.providerEvents.list()).items.map((e) => e.eventId)).toEqual(['d', 'c', 'b', 'a'])
      expect((await program.providerEvents.list({ provider: 'stripe', status: 'waiting' })).items.map((e) => e.eventId)).toEqual(['c', 'b'])
      expect((await program.providerEvents.list({ reference: 'in_a' })).items.map((e) => e.eventId)).toEqual(['a'])
      expect((await program.providerEvents.list({ limit: 1, offset: 1 })).items.map((e) => e.eventId)).toEqual(['c'])
      await storage.providerEvents.insert(event(projectId, { eventId: 'e', status: 'waiting', waitingFor: 'payment:p', occurredAt: day(7), createdAt: day(5) }))
      expect((await storage.providerEvents.all(projectId, { provider: 'stripe', status: 'waiting', waitingFor: ['customer:c'] })).map((e) => e.eventId)).toEqual(['c', 'b'])
      expect((await storage.providerEvents.all(projectId, { provider: 'stripe', status: 'waiting', waitingFor: ['customer:c', 'payment:p', 'none'] })).map((e) => e.eventId)).toEqual(['c', 'e', 'b'])
      expect(await storage.providerEvents.all(projectId, { provider: 'paddle', status: 'waiting', waitingFor: ['customer:c'] })).toEqual([])
      expect(await storage.providerEvents.all(projectId, { provider: 'stripe', status: 'waiting', waitingFor: [] })).toEqual([])
      const listed = (await program.providerEvents.list({ limit: 1 })).items[0]!
      expect(listed).not.toHaveProperty('mapped')
      await expect(program.providerEvents.list({ status: 'lost' as never })).rejects.toMatchObject({ code: 'invalid_request', field: 'status' })
    })

    it('saves, merges and reads links per project and provider', async () => {
      const { program, storage } = await context.program()
      const other = await context.program()
      const link = { projectId: program.projectId, provider: 'stripe', kind: 'customer', externalId: 'cus_1', data: { email: 'a@example.com', referral: null } }
      await storage.providerEvents.saveLinks([link])
      // The keys given replace the saved ones; the others stay.
      await storage.providerEvents.saveLinks([{ ...link, data: { referral: 'ANN', coupon: null } }])
      expect(await storage.providerEvents.getLink(program.projectId, 'stripe', 'customer', 'cus_1')).toEqual({ ...link, data: { email: 'a@example.com', referral: 'ANN', coupon: null } })
      expect(await storage.providerEvents.getLink(program.projectId, 'paddle', 'customer', 'cus_1')).toBeNull()
      expect(await storage.providerEvents.getLink(other.program.projectId, 'stripe', 'customer', 'cus_1')).toBeNull()
      const payment = (externalId: string, data: Record<string, string>) => ({ projectId: program.projectId, provider: 'stripe', kind: 'payment', externalId, data })
      await storage.providerEvents.saveLinks([payment('in_1', { reference: 'in_1', conversionId: '0' })])
      const saved = await storage.providerEvents.saveLinks([payment('in_1', { conversionId: '1' }), payment('pi_1', { conversionId: '1' }), payment('in_1', { conversionId: '2' })])
      // Each key once, as saved: the last of a key's data merged onto what was saved before.
      expect(saved.map((l) => [l.externalId, l.data]).sort()).toEqual([
        ['in_1', { reference: 'in_1', conversionId: '2' }],
        ['pi_1', { conversionId: '1' }],
      ])
      expect((await storage.providerEvents.getLink(program.projectId, 'stripe', 'payment', 'in_1'))?.data).toEqual({ reference: 'in_1', conversionId: '2' })
      expect((await storage.providerEvents.getLink(program.projectId, 'stripe', 'payment', 'pi_1'))?.data).toEqual({ conversionId: '1' })
      expect(await storage.providerEvents.saveLinks([])).toEqual([])
    })

    it('records an event with its links in one call and returns the links as saved; a duplicate fails and writes nothing', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const link = (kind: string, externalId: string, data: Record<string, string>) => ({ projectId, provider: 'stripe', kind, externalId, data })
      await storage.providerEvents.saveLinks([link('woken', 'payment:in_1', { waited: 'yes' })])
      const recorded = await (
        await storage.providerEvents.record(event(projectId, { eventId: 'evt_new', status: 'applied', detail: 'created', conversionId: 7 }), [
          link('payment', 'in_1', { conversionId: '6' }),
          link('payment', 'pi_1', { conversionId: '7' }),
          link('payment', 'in_1', { conversionId: '7' }),
          link('woken', 'payment:in_1', { mark: 'm1' }),
        ])
      ).saved
      expect(recorded.event).toMatchObject({ eventId: 'evt_new', status: 'applied', detail: 'created', conversionId: 7 })
      expect(await storage.providerEvents.get(projectId, recorded.event.id)).toEqual(recorded.event)
      expect(recorded.links.map((l) => [l.kind, l.externalId, l.data]).sort()).toEqual([
        ['payment', 'in_1', { conversionId: '7' }],
        ['payment', 'pi_1', { conversionId: '7' }],
        ['woken', 'payment:in_1', { waited: 'yes', mark: 'm1' }],
      ])
      expect(recorded.links.every((l) => l.projectId === projectId && l.provider === 'stripe')).toBe(true)
      expect((await storage.providerEvents.getLink(projectId, 'stripe', 'payment', 'in_1'))?.data).toEqual({ conversionId: '7' })
      const alone = await (await storage.providerEvents.record(event(projectId, { eventId: 'evt_alone', status: 'ignored' }), [])).saved
      expect(alone.links).toEqual([])

      const total = (await program.providerEvents.list()).total
      const duplicate = storage.providerEvents.record(event(projectId, { eventId: 'evt_new', status: 'ignored' }), [link('payment', 'in_1', { conversionId: 'dup' }), link('payment', 'in_dup', { conversionId: 'dup' })])
      await expect(duplicate).rejects.toMatchObject({ name: 'UniqueViolation', constraint: 'provider_event' })
      expect((await program.providerEvents.list()).total).toBe(total)
      expect(await storage.providerEvents.get(projectId, recorded.event.id)).toEqual(recorded.event)
      expect((await storage.providerEvents.getLink(projectId, 'stripe', 'payment', 'in_1'))?.data).toEqual({ conversionId: '7' })
      expect(await storage.providerEvents.getLink(projectId, 'stripe', 'payment', 'in_dup')).toBeNull()
    })

    it('in a transaction, a record answers once the transaction commits; a duplicate fails the whole transaction', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const link = (externalId: string) => ({ projectId, provider: 'stripe', kind: 'payment', externalId, data: { conversionId: '1' } })
      const first: { recording?: ProviderEventRecording } = {}
      await storage.transaction(async (tx) => {
        first.recording = await tx.providerEvents.record(event(projectId, { eventId: 'evt_tx', status: 'applied' }), [link('in_tx')])
      })
      const saved = await first.recording!.saved
      expect(saved.event).toMatchObject({ eventId: 'evt_tx', status: 'applied' })
      expect(await storage.providerEvents.get(projectId, saved.event.id)).toEqual(saved.event)
      expect(saved.links.map((l) => l.externalId)).toEqual(['in_tx'])

      // The duplicate fails the transaction it is part of: the link saved beside it is rolled back too.
      const second: { recording?: ProviderEventRecording } = {}
      const failed = storage.transaction(async (tx) => {
        await tx.providerEvents.saveLinks([link('in_rolled_back')])
        second.recording = await tx.providerEvents.record(event(projectId, { eventId: 'evt_tx', status: 'ignored' }), [link('in_dup')])
      })
      await expect(failed).rejects.toMatchObject({ name: 'UniqueViolation', constraint: 'provider_event' })
      // Failing at once (memory) or with the COMMIT (SQL), the recording never answers saved.
      expect(await (second.recording ? second.recording.saved.then(() => 'saved', () => 'failed') : 'failed')).toBe('failed')
      expect(await storage.providerEvents.getLink(projectId, 'stripe', 'payment', 'in_rolled_back')).toBeNull()
      expect(await storage.providerEvents.getLink(projectId, 'stripe', 'payment', 'in_dup')).toBeNull()
      expect((await storage.providerEvents.get(projectId, saved.event.id))?.status).toBe('applied')
    })

    it('lists the events still waiting for a key woken after they were saved, and before a time', async () => {
      const { program, storage } = await context.program()
      const projectId = program.projectId
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute))
      const waiting = (eventId: string, key: string, savedAt: number, overrides: Partial<NewProviderEvent> = {}) =>
        storage.providerEvents.insert(event(projectId, { eventId, status: 'waiting', waitingFor: key, occurredAt: at(60 - savedAt), updatedAt: at(savedAt), ...overrides }))
      const woken = (key: string, minute: number, provider = 'stripe') =>
        storage.providerEvents.saveLinks([{ projectId, provider, kind: 'woken', externalId: key, data: { mark: key, at: at(minute).toISOString() } }])
      await waiting('before', 'payment:a', 5) // woken at 10, after it was saved
      await waiting('same', 'payment:b', 10) // woken the moment it was saved
      await waiting('after', 'payment:c', 20) // saved again after its key was woken
      await waiting('late', 'payment:d', 5) // woken at 40: not before the time asked
      await waiting('flagged', 'payment:e', 5) // its key flagged, never woken
      await waiting('paddle', 'payment:a', 5, { provider: 'paddle' }) // another provider's key
      await waiting('done', 'payment:a', 5, { status: 'applied' })
      await woken('payment:a', 10)
      await woken('payment:b', 10)
      await woken('payment:c', 10)
      await woken('payment:d', 40)
      await storage.providerEvents.saveLinks([{ projectId, provider: 'stripe', kind: 'woken', externalId: 'payment:e', data: { waited: 'yes' } }])
      const listed = await storage.providerEvents.listWokenWaiting(projectId, 'stripe', at(30), 10)
      expect(listed.map((e) => e.eventId)).toEqual(['same', 'before'])
      expect((await storage.providerEvents.listWokenWaiting(projectId, 'stripe', at(30), 1)).map((e) => e.eventId)).toEqual(['same'])
      const other = await context.program()
      expect(await storage.providerEvents.listWokenWaiting(other.program.projectId, 'stripe', at(30), 10)).toEqual([])
    })

    it('rolls a provider event back with its transaction', async () => {
      const { program, storage } = await context.program()
      await storage
        .transaction(async (tx) => {
          await tx.providerEvents.insert(event(program.projectId, { eventId: 'rolled' }))
          throw new Error('rollback')
        })
        .catch(() => undefined)
      expect((await program.providerEvents.list()).total).toBe(0)
    })
  })
}
