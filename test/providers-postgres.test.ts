// Two processes, each with its own pool, receiving the same Stripe event at once on one
// PostgreSQL schema: one event record, one conversion, every answer 200.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, type StoragePort } from '../src/index.js'
import { invoicePaid } from './providers/stripe-fixtures.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from './providers/scenario.js'
import { STRIPE_SECRET } from './providers/stripe-scenario.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from './sql/pg-schema.js'

const suite = DATABASE_URL ? describe : describe.skip
const childScript = join(dirname(fileURLToPath(import.meta.url)), 'providers', 'stripe-child.ts')

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
})
