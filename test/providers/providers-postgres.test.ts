// Two processes, each with its own pool, receiving Stripe events at once on one PostgreSQL
// schema: the same event gives one event record and one conversion; two refunds of one charge
// apply one after another.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, type StoragePort } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { chargeRefunded, invoicePaid, invoicePaymentPaid } from '../support/providers/stripe-fixtures.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const suite = DATABASE_URL ? describe : describe.skip
const childScript = join(dirname(fileURLToPath(import.meta.url)), '../support/providers', 'stripe-child.ts')

function child(args: object) {
  const process_ = spawn(process.execPath, ['--import', 'tsx', childScript, JSON.stringify(args)], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  process_.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const ready = new Promise<void>((resolve, reject) => {
    process_.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('ready\n')) resolve()
    })
    process_.on('exit', () => reject(new Error(`child exited early: ${err}`)))
  })
  const result = new Promise<number[]>((resolve, reject) =>
    process_.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as number[]) : reject(new Error(`child failed: ${err}`)))),
  )
  return { ready, result, go: () => process_.stdin!.write('go\n') }
}

suite(`payment providers on postgres: two processes${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let storage: StoragePort
  let schema: string
  let cleanup: () => Promise<void>
  beforeAll(() => {
    ;({ storage, schema, cleanup } = freshPostgresStorage())
  })
  afterAll(async () => {
    await cleanup?.()
  })

  it('two processes receiving the same invoice.paid at once create one conversion and record it once', async () => {
    const program = await createAffiliateProgram({ storage, project: 'two-processes', settings: SCENARIO_SETTINGS })
    await scenarioAffiliates(program, 'BOB20')
    await program.referrals.create({ email: 'eve@example.com', referralCode: 'ANN' })
    const event = invoicePaid({ at: new Date().toISOString(), id: 'in_Eve1', customer: 'cus_Eve', email: 'eve@example.com', subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Eve1' })
    const body = JSON.stringify(event)
    const header = new Stripe('sk_test_not_used').webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET })
    const children = [1, 2].map(() => child({ schema, project: 'two-processes', secret: STRIPE_SECRET, body, header, times: 4 }))
    await Promise.all(children.map((c) => c.ready))
    for (const c of children) c.go()
    const statuses = (await Promise.all(children.map((c) => c.result))).flat()
    expect(statuses).toEqual(Array(8).fill(200))
    const conversions = await program.conversions.list()
    expect(conversions.items.map((c) => [c.reference, c.value])).toEqual([['in_Eve1', '15.00']])
    const events = await program.providerEvents.list()
    expect(events.items.map((e) => [e.eventId, e.status])).toEqual([[event.id, 'applied']])
  }, 60_000)

  it('two processes each applying a refund of one charge at once end with what Stripe says was refunded so far', async () => {
    const stripe = new Stripe('sk_test_not_used')
    // The race is a few milliseconds wide: several rounds, each on a payment of its own.
    for (const round of [1, 2, 3]) {
      const project = `two-refunds-${round}`
      const program = await createAffiliateProgram({ storage, project, settings: SCENARIO_SETTINGS })
      await scenarioAffiliates(program, 'BOB20')
      await program.referrals.create({ email: 'fay@example.com', referralCode: 'ANN' })
      const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
      const at = new Date().toISOString()
      const fay = { customer: 'cus_Fay', email: 'fay@example.com' }
      await deliverStripe(handler, invoicePaid({ at, id: 'in_Fay1', ...fay, subtotal: 10000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Fay1' }), program.clock)
      await deliverStripe(handler, invoicePaymentPaid({ at, invoice: 'in_Fay1', paymentIntent: 'pi_Fay1', amount: 10000 }), program.clock)
      // Stripe's amount_refunded is the charge's running total: 25.00, then 75.00.
      const children = [2500, 7500].map((refundedSoFar) => {
        const body = JSON.stringify(chargeRefunded({ at, id: 'ch_Fay1', ...fay, paymentIntent: 'pi_Fay1', amount: 10000, refundedSoFar }))
        return child({ schema, project, secret: STRIPE_SECRET, body, header: stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET }), times: 1 })
      })
      await Promise.all(children.map((c) => c.ready))
      for (const c of children) c.go()
      expect((await Promise.all(children.map((c) => c.result))).flat()).toEqual([200, 200])
      const [conversion] = (await program.conversions.list()).items
      // 75.00 of 100.00 refunded, whichever came first: commission 30.00 -> 7.50.
      expect([round, conversion!.status, conversion!.refundedBaseValue, conversion!.value]).toEqual([round, 'active', '75.00', '7.50'])
    }
  }, 120_000)
})
