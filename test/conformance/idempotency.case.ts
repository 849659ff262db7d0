// Idempotency-Key claims are leased: a request whose process died between claim and answer blocks
// its key only until the lease ends; the retry then answers what was committed. The "dead"
// process is a second program over the same storage whose answer never gets stored.
import { describe, expect, it } from 'vitest'
import { createAffiliateProgram, type StoragePort } from '../../src/index.js'
import { createHandler, type KeyedStateStore } from '../../src/http/index.js'
import { IDEMPOTENCY_LEASE_MS, withIdempotency } from '../../src/http/idempotency.js'
import { caller } from '../support/http/helpers.js'
import type { CaseContext } from './harness.js'

/** The keyed state as seen by a process that dies right after its request committed, before answering. */
function diesBeforeAnswering(state: KeyedStateStore, died: () => void): KeyedStateStore {
  return {
    ...state,
    settle: () => {
      died()
      return new Promise<void>(() => {})
    },
  }
}

/** The storage as seen by a process that dies when its request opens its write transaction. */
function diesBeforeCommitting(storage: StoragePort, died: () => void): StoragePort {
  return {
    ...storage,
    transaction: () => {
      died()
      return new Promise<never>(() => {})
    },
  }
}

export function idempotencyCases(context: CaseContext): void {
  describe('Idempotency-Key leases', () => {
    async function setup() {
      const { program, clock, storage } = await context.program()
      const affiliate = await program.affiliates.create({ email: 'lease@example.com' })
      const { key } = await program.keys.create({ name: 'lease' })
      const call = caller(createHandler(program, { rateLimit: false, state: storage.keyedState }), key)
      return { program, clock, storage, affiliate, key, call }
    }

    it('a conversion committed by a process that died before answering: 409 during the lease, then the committed conversion', async () => {
      const { program, clock, storage, affiliate, key, call } = await setup()
      let died!: () => void
      const dead = new Promise<void>((resolve) => (died = resolve))
      const doomed = await createAffiliateProgram({ storage, clock, project: program.projectId })
      const body = { type: 'purchase', affiliate_id: affiliate.id, base_value: 49, reference: 'ch_lease' }
      const headers = { 'idempotency-key': 'charge-ch_lease' }
      const doomedState = diesBeforeAnswering(storage.keyedState, died)
      void caller(createHandler(doomed, { rateLimit: false, state: doomedState }), key)('POST', '/conversions', body, { headers })
      await dead

      const during = await call('POST', '/conversions', body, { headers })
      expect(during.status).toBe(409)
      expect(during.body.error).toContain('still being processed')
      clock.advance({ ms: IDEMPOTENCY_LEASE_MS - 1 })
      expect((await call('POST', '/conversions', body, { headers })).status).toBe(409)
      // Another body never takes the key over, lease or not.
      clock.advance({ ms: 1 })
      expect((await call('POST', '/conversions', { ...body, base_value: 50 }, { headers })).status).toBe(409)

      const retry = await call('POST', '/conversions', body, { headers })
      expect(retry.status).toBe(200)
      expect(retry.body).toMatchObject({ success: true, duplicate: true, data: { reference: 'ch_lease', value: 14.7 } })
      expect(retry.headers.get('idempotent-replayed')).toBeNull()
      const conversions = await program.conversions.list()
      expect(conversions.total).toBe(1)
      expect(retry.body.data.id).toBe(conversions.items[0]!.id)
      // The retry's answer is the one stored now.
      const replay = await call('POST', '/conversions', body, { headers })
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect(replay.text).toBe(retry.text)
    })

    it('a claim whose process died before its transaction committed: the retry after the lease creates once', async () => {
      const { program, clock, storage, key, call } = await setup()
      let died!: () => void
      const dead = new Promise<void>((resolve) => (died = resolve))
      const doomed = await createAffiliateProgram({ storage: diesBeforeCommitting(storage, died), clock, project: program.projectId })
      const body = { email: 'ann@example.com' }
      const headers = { 'idempotency-key': 'create-ann' }
      void caller(createHandler(doomed, { rateLimit: false, state: storage.keyedState }), key)('POST', '/affiliates', body, { headers })
      await dead

      expect((await call('POST', '/affiliates', body, { headers })).status).toBe(409)
      clock.advance({ ms: IDEMPOTENCY_LEASE_MS })
      const retry = await call('POST', '/affiliates', body, { headers })
      expect(retry.status).toBe(201)
      expect(retry.body.data.user_email).toBe('ann@example.com')
      expect((await program.affiliates.list()).total).toBe(2)
      const replay = await call('POST', '/affiliates', body, { headers })
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect(replay.text).toBe(retry.text)
    })

    it('a request still running past its lease keeps the key: the lease is renewed while it runs', async () => {
      const { program, storage } = await context.program()
      const leaseMs = 150
      const claim = () => ({ projectId: program.projectId, key: 'slow', fingerprint: 'POST /x body', now: new Date(), leaseMs })
      let calls = 0
      const slow = withIdempotency(storage.keyedState, claim(), async () => {
        calls += 1
        await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs + 300))
        return { status: 201, body: '{"n":1}' }
      })
      await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs))
      const repeat = await withIdempotency(storage.keyedState, claim(), async () => ({ status: 201, body: '{"n":2}' })).catch((error: { status?: number; message: string }) => error.message)
      expect(repeat).toMatch(/still being processed/)
      expect(await slow).toEqual({ status: 201, body: '{"n":1}', replayed: false })
      expect(await withIdempotency(storage.keyedState, claim(), async () => ({ status: 201, body: '{"n":3}' }))).toEqual({ status: 201, body: '{"n":1}', replayed: true })
      expect(calls).toBe(1)
    })
  })
}
