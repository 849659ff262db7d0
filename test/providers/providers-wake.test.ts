// A waiting event and the event it waits for, arriving at the same moment: the waiting one is
// applied whichever way the two requests interleave. One request is slow (it pauses at a chosen
// transaction) while the other runs.
import { afterAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram, testClock, type StoragePort } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import type { StorageTx } from '../../src/storage.js'
import { checkoutCompleted, customerCreated, invoicePaid, invoicePaymentPaid, legacyChargeRefunded, legacyInvoicePaid } from '../support/providers/stripe-fixtures.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'

/**
 * The storage as seen by a slow request: from the call of `pause(n, at)` on, its n-th
 * transaction waits, before it starts or just before it commits, until `resume` is called.
 * `paused` resolves when it waits. A provider event's record or outcome saved in one storage
 * call (one statement) counts as a transaction of its own.
 */
function slowed(storage: StoragePort) {
  let calls = 0
  let pauseAt = 0
  let where: 'start' | 'commit' = 'start'
  let resume!: () => void
  const gate = new Promise<void>((resolve) => (resume = resolve))
  let reached!: () => void
  const paused = new Promise<void>((resolve) => (reached = resolve))
  const wait = async (call: number, at: 'start' | 'commit') => {
    if (call !== pauseAt || at !== where) return
    reached()
    await gate
  }
  const oneStatement = <A extends unknown[], R>(save: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const call = (calls += 1)
      await wait(call, 'start')
      const result = await save(...args)
      await wait(call, 'commit')
      return result
    }
  const events = storage.providerEvents
  const providerEvents = { ...events, record: oneStatement(events.record.bind(events)), saveOutcome: oneStatement(events.saveOutcome.bind(events)) }
  const slow = new Proxy(storage, {
    get(target, property, receiver) {
      if (property === 'providerEvents') return providerEvents
      if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown
      return async <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> => {
        const call = (calls += 1)
        await wait(call, 'start')
        return target.transaction(async (tx) => {
          const result = await fn(tx)
          await wait(call, 'commit')
          return result
        })
      }
    },
  })
  const pause = (n: number, at: 'start' | 'commit') => {
    calls = 0
    pauseAt = n
    where = at
  }
  return { slow, pause, paused, resume }
}

/**
 * The storage with a fault: from the call of `fail(n)` on, its n-th transaction throws before it
 * starts (a lost connection, say), once.
 */
function faulty(storage: StoragePort) {
  let calls = 0
  let failAt = 0
  const slow = new Proxy(storage, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown
      return async <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> => {
        calls += 1
        if (calls === failAt) throw new Error('connection lost')
        return target.transaction(fn)
      }
    },
  })
  const fail = (n: number) => {
    calls = 0
    failAt = n
  }
  return { storage: slow, fail }
}

/** The storage whose read of waiting events fails once, from the call of `fail()` on (a lost connection, say). */
function failingWaitingRead(storage: StoragePort) {
  let armed = false
  const providerEvents = new Proxy(storage.providerEvents, {
    get(target, property, receiver) {
      if (property !== 'all' || !armed) return Reflect.get(target, property, receiver) as unknown
      armed = false
      return async () => {
        throw new Error('connection lost')
      }
    },
  })
  const failing = new Proxy(storage, {
    get: (target, property, receiver) => (property === 'providerEvents' ? providerEvents : (Reflect.get(target, property, receiver) as unknown)),
  })
  return { storage: failing, fail: () => (armed = true) }
}

/**
 * Starts the slow request, runs the quick one from start to end while the slow one is paused,
 * then lets the slow one finish: both answers, slow first.
 */
async function whilePaused(gate: { paused: Promise<void>; resume: () => void }, slow: () => Promise<Response>, quick: () => Promise<Response>): Promise<[Response, Response]> {
  const slowAnswer = slow()
  await gate.paused
  const quickAnswer = await quick()
  gate.resume()
  return [await slowAnswer, quickAnswer]
}

/** Two storages on one database (two processes), or one storage twice (one process). */
type Storages = () => Promise<{ first: StoragePort; second: StoragePort; schema?: string; close(): Promise<void> }>

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const cases: Array<[string, Storages]> = [
  [
    'memory, one process',
    async () => {
      const storage = memoryStorage()
      return { first: storage, second: storage, close: async () => undefined }
    },
  ],
]
if (DATABASE_URL) {
  cases.push([
    'postgres, two processes',
    async () => {
      const { storage, schema, cleanup } = freshPostgresStorage()
      const second = postgresStorage({ connectionString: DATABASE_URL!, schema })
      return {
        first: storage,
        second,
        schema,
        close: async () => {
          await second.close()
          await cleanup()
        },
      }
    },
  ])
}

/** Hal, referred by Ann, and a Stripe handler on a storage with the fault `withFault` adds. */
async function faultyHal<Fail>(storages: Storages, withFault: (storage: StoragePort) => { storage: StoragePort; fail: Fail }) {
  const { first, close } = await storages()
  closers.push(close)
  const clock = testClock('2026-02-01T00:00:00Z')
  const { storage, fail } = withFault(first)
  const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(program, 'BOB20')
  await program.referrals.create({ email: 'hal@example.com', referralCode: 'ANN' })
  const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
  return { program, clock, handler, fail, hal: { customer: 'cus_Hal', email: 'hal@example.com' } }
}

describe('provider events: a waiting event and what it waits for, at the same moment', () => {
  for (const [name, storages] of cases) {
    it(`${name}: the payment re-checking while the customer's referral is saved is applied`, async () => {
      const { first, second, close } = await storages()
      closers.push(close)
      const clock = testClock('2026-02-01T00:00:00Z')
      const program = await createAffiliateProgram({ storage: first, clock, project: 'wake', settings: SCENARIO_SETTINGS })
      await scenarioAffiliates(program, 'BOB20')
      const { slow, pause, paused, resume } = slowed(second)
      const other = await createAffiliateProgram({ storage: slow, clock, project: 'wake' })
      const invoice = invoicePaid({ at: '2026-01-31T10:00:01Z', id: 'in_Gus1', customer: 'cus_Gus', email: 'gus@example.com', subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Gus1' })
      const checkout = checkoutCompleted({ at: '2026-01-31T10:00:00Z', customer: 'cus_Gus', email: 'gus@example.com', referral: 'ANN' })

      // The payment waits (Gus is no referred user yet: its conversion's transaction, the first,
      // rolls back), is saved waiting (the second), then re-checks: it is applied again (the
      // third), still finds no referral, and pauses before saving that outcome (the fourth).
      pause(4, 'start')
      // Meanwhile the checkout makes Gus Ann's referred user, from start to end.
      const [payment, customer] = await whilePaused(
        { paused, resume },
        () => deliverStripe(stripeHandler({ program: other, webhookSecret: STRIPE_SECRET }), invoice, clock),
        async () => {
          // Paused in its re-check: claimed, so the checkout's wake does not see it waiting.
          expect((await program.providerEvents.list()).items.map((e) => [e.type, e.status])).toEqual([['invoice.paid', 'processing']])
          return deliverStripe(stripeHandler({ program, webhookSecret: STRIPE_SECRET }), checkout, clock)
        },
      )
      expect(await customer.json()).toMatchObject({ status: 'applied' })
      expect(payment.status).toBe(200)

      const conversions = await program.conversions.list()
      expect(conversions.items.map((c) => [c.reference, c.customerEmail, c.value])).toEqual([['in_Gus1', 'gus@example.com', '15.00']])
      const events = await program.providerEvents.list()
      expect(events.items.map((e) => [e.type, e.status]).sort()).toEqual([
        ['checkout.session.completed', 'applied'],
        ['invoice.paid', 'applied'],
      ])
    }, 60_000)
  }

  for (const [name, storages] of cases) {
    it(`${name}: a woken refund whose applying fails is applied by the next sweep`, async () => {
      const { program, clock, handler, fail, hal } = await faultyHal(storages, faulty)
      const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })
      expect(await (await deliverStripe(handler, refund, clock)).json()).toMatchObject({ status: 'waiting' })

      // The payment's conversion and outcome commit (its first transaction); the refund it wakes
      // fails in its own (the second): the payment's request answers 500.
      fail(2)
      const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' })
      expect((await deliverStripe(handler, invoice, clock)).status).toBe(500)
      // Stripe delivers the payment again: it is recorded, so it wakes nothing.
      expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'applied' })
      expect((await program.conversions.list()).items.map((c) => c.status)).toEqual(['active'])

      // A minute on, the next event's sweep applies the refund.
      clock.advance({ seconds: 61 })
      expect(await (await deliverStripe(handler, customerCreated({ at: '2026-02-01T00:01:01Z', customer: 'cus_Ivy', email: 'ivy@example.com' }), clock)).json()).toMatchObject({ status: 'applied' })
      expect((await program.conversions.list()).items.map((c) => [c.reference, c.status])).toEqual([['in_Hal1', 'refunded']])
      const events = await program.providerEvents.list()
      expect(events.items.map((e) => [e.type, e.status]).sort()).toEqual([
        ['charge.refunded', 'applied'],
        ['customer.created', 'applied'],
        ['invoice.paid', 'applied'],
      ])
    }, 60_000)
  }

  for (const [name, storages] of cases) {
    it(`${name}: a woken event whose applying fails does not keep the others woken with it waiting`, async () => {
      const { program, clock, handler, fail, hal } = await faultyHal(storages, faulty)
      // Both wait for the payment of in_Hal1: the refund (older) and which payment intent paid it.
      const refund = legacyChargeRefunded({ at: '2026-01-31T10:30:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })
      expect(await (await deliverStripe(handler, refund, clock)).json()).toMatchObject({ status: 'waiting' })
      const paidBy = invoicePaymentPaid({ at: '2026-01-31T10:45:00Z', invoice: 'in_Hal1', paymentIntent: 'pi_Hal2', amount: 5000 })
      expect(await (await deliverStripe(handler, paidBy, clock)).json()).toMatchObject({ status: 'waiting' })

      // The payment's own transaction commits; the refund, woken first, fails in its own.
      fail(2)
      const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' })
      expect((await deliverStripe(handler, invoice, clock)).status).toBe(500)
      // The other event it woke was applied all the same: nothing else would wake it.
      const status = async (type: string) => (await program.providerEvents.list()).items.find((e) => e.type === type)?.status
      expect(await status('invoice_payment.paid')).toBe('applied')
    }, 60_000)
  }

  for (const [name, storages] of cases) {
    it(`${name}: a refund its payment woke but never read (the read failed) is applied by the next sweep`, async () => {
      const { program, clock, handler, fail, hal } = await faultyHal(storages, failingWaitingRead)
      const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })
      expect(await (await deliverStripe(handler, refund, clock)).json()).toMatchObject({ status: 'waiting' })

      // The payment commits; reading the events it woke fails: 500. Its redelivery wakes nothing.
      fail()
      const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' })
      expect((await deliverStripe(handler, invoice, clock)).status).toBe(500)
      expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'applied' })
      const refundStatus = async () => (await program.providerEvents.list()).items.find((e) => e.type === 'charge.refunded')?.status
      expect(await refundStatus()).toBe('waiting')

      // Less than a minute on, it may still be in the works; past the minute, the sweep applies it.
      clock.advance({ seconds: 59 })
      await deliverStripe(handler, customerCreated({ at: '2026-02-01T00:00:59Z', customer: 'cus_Ivy', email: 'ivy@example.com' }), clock)
      expect(await refundStatus()).toBe('waiting')
      clock.advance({ seconds: 2 })
      await deliverStripe(handler, customerCreated({ at: '2026-02-01T00:01:01Z', customer: 'cus_Jo', email: 'jo@example.com' }), clock)
      expect(await refundStatus()).toBe('applied')
      expect((await program.conversions.list()).items.map((c) => [c.reference, c.status])).toEqual([['in_Hal1', 'refunded']])
    }, 60_000)
  }

  if (DATABASE_URL) {
    it('postgres, two processes: a refund saved waiting while its payment is still uncommitted is applied by the payment', async () => {
      const { first, second, close } = await cases[1]![1]()
      closers.push(close)
      const clock = testClock('2026-02-01T00:00:00Z')
      const { slow, pause, paused, resume } = slowed(second)
      const program = await createAffiliateProgram({ storage: first, clock, project: 'wake-commit', settings: SCENARIO_SETTINGS })
      await scenarioAffiliates(program, 'BOB20')
      await program.referrals.create({ email: 'hal@example.com', referralCode: 'ANN' })
      const slowProgram = await createAffiliateProgram({ storage: slow, clock, project: 'wake-commit' })
      const hal = { customer: 'cus_Hal', email: 'hal@example.com' }
      const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' })
      const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })

      // The payment's conversion is written; its transaction pauses before its last round trip,
      // which writes its record and the marks of the keys it wakes, then commits.
      pause(1, 'commit')
      const paymentAnswer = deliverStripe(stripeHandler({ program: slowProgram, storage: slow, webhookSecret: STRIPE_SECRET }), invoice, clock)
      await paused
      // Meanwhile the refund arrives: it cannot see the payment, so it is saved waiting, its key
      // flagged. The payment's mark, written after the flag, sees it: the payment applies the refund.
      const refunded = await deliverStripe(stripeHandler({ program, storage: first, webhookSecret: STRIPE_SECRET }), refund, clock)
      expect(await refunded.json()).toMatchObject({ status: 'waiting' })
      resume()
      expect(await (await paymentAnswer).json()).toMatchObject({ status: 'applied' })

      expect((await program.conversions.list()).items.map((c) => [c.reference, c.status])).toEqual([['in_Hal1', 'refunded']])
      const events = await program.providerEvents.list()
      expect(events.items.map((e) => [e.type, e.status]).sort()).toEqual([
        ['charge.refunded', 'applied'],
        ['invoice.paid', 'applied'],
      ])
    }, 60_000)
  }
})
