// Payment-provider events through the Stripe handler (the built dist/; `npm run build` first):
// signed invoice.paid events per second, each creating one conversion, next to direct
// conversions.create calls for the same kind of payment, measured in the same run, on the memory
// adapter and on PGlite. Rounds alternate between the two; medians are reported.
// Target: ratio >= 0.70.
import { createHmac } from 'node:crypto'
import { createAffiliateProgram, type StoragePort } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'
import { pgliteStorage } from '../dist/adapters/pglite.js'
import { stripeHandler } from '../dist/providers/stripe.js'

const SECRET = 'whsec_bench'
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const created = Math.floor(Date.now() / 1000)

/** A signed invoice.paid of a referred customer, as Stripe sends it (signing is not timed). */
function signedInvoice(n: number): Request {
  const email = `handler${n}@example.com`
  const body = JSON.stringify({
    id: `evt_bench_${n}`, object: 'event', api_version: '2025-03-31.basil', created, livemode: false, pending_webhooks: 1, type: 'invoice.paid',
    data: { object: {
      id: `in_bench_${n}`, object: 'invoice', customer: `cus_bench_${n}`, customer_email: email, currency: 'usd', status: 'paid', billing_reason: 'manual',
      subtotal: 1999, total: 1999, total_excluding_tax: 1999, total_taxes: [], discounts: [], parent: null,
      status_transitions: { paid_at: created, finalized_at: created, marked_uncollectible_at: null, voided_at: null },
      payments: { object: 'list', data: [{ id: `inpay_${n}`, object: 'invoice_payment', payment: { type: 'payment_intent', payment_intent: `pi_bench_${n}` } }], has_more: false },
    } },
  })
  const header = `t=${created},v1=${createHmac('sha256', SECRET).update(`${created}.${body}`).digest('hex')}`
  return new Request('http://bench/api/v1/providers/stripe/events', { method: 'POST', body, headers: { 'Stripe-Signature': header } })
}

async function timed(count: number, work: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let index = 0; index < count; index += 1) await work(index)
  return count / ((performance.now() - started) / 1000)
}

async function compare(name: string, storage: StoragePort, rounds: number, perRound: number): Promise<void> {
  const program = await createAffiliateProgram({ storage })
  const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const handler = stripeHandler({ program, storage, webhookSecret: SECRET })
  const handlerRates: number[] = []
  const directRates: number[] = []
  for (let round = 0; round < rounds; round += 1) {
    const offset = round * perRound
    // Both paths pay for customers already referred by Ann (set up outside the timing).
    for (let index = 0; index < perRound; index += 1) {
      await program.referrals.create({ email: `handler${offset + index}@example.com`, affiliateId: ann.id })
      await program.referrals.create({ email: `direct${offset + index}@example.com`, affiliateId: ann.id })
    }
    const requests = Array.from({ length: perRound }, (_, index) => signedInvoice(offset + index))
    handlerRates.push(
      await timed(perRound, async (index) => {
        const response = await handler(requests[index]!)
        if (response.status !== 200) throw new Error(`handler answered ${response.status}: ${await response.text()}`)
      }),
    )
    directRates.push(
      await timed(perRound, (index) =>
        program.conversions.create({ type: 'purchase', email: `direct${offset + index}@example.com`, baseValue: '19.99', baseValueCurrency: 'USD', reference: `in_direct_${offset + index}` }),
      ),
    )
  }
  const total = (await program.conversions.list({ limit: 1 })).total
  if (total !== rounds * perRound * 2) throw new Error(`expected ${rounds * perRound * 2} conversions, found ${total}`)
  await program.close()
  const viaHandler = median(handlerRates)
  const direct = median(directRates)
  const round = (value: number) => Math.round(value).toLocaleString('en')
  console.log(`${name}: stripe invoice.paid through the handler: ${round(viaHandler)}/s median of ${rounds} rounds (${handlerRates.map(round).join(' / ')})`)
  console.log(`  baseline, direct conversions.create: ${round(direct)}/s; ratio ${(viaHandler / direct).toFixed(2)} (target >= 0.70)`)
}

await compare('memory', memoryStorage(), 5, 4_000)
await compare('pglite', pgliteStorage(), 3, 300)
