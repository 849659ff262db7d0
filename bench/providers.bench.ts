// Payment-provider events through the Stripe handler (the built dist/; `npm run build` first):
// signed invoice.paid events per second, each creating one conversion, next to direct
// conversions.create calls for the same kind of payment, measured in the same run, on the memory
// adapter, PGlite and (with DATABASE_URL, in a schema of its own) PostgreSQL. Two comparisons:
// - fetch: the handler called with fetch Requests in-process vs conversions.create in-process;
// - node:http: the handler in a node:http server (toNodeHandler: its `node`) vs a bare node:http server that reads
//   the same body and calls conversions.create, both over one keep-alive loopback connection.
// Rounds alternate between the two sides; medians are reported, the median of the rounds' ratios
// (target: >= 0.70) and what an event costs beyond a direct create. In-process, a third comparison
// bounds what any handler could reach: a direct create plus only the work every fetch handler of a
// signed event must do (read the Request's body, check the signature, build the Response), timed
// beside the database work it alternates with, against the create alone. A handler also records
// the event, so it cannot beat that ratio. On PostgreSQL it also counts round trips per event and
// per direct create.
import { createHmac } from 'node:crypto'
import { Agent, createServer, request as httpRequest, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { createAffiliateProgram, type AffiliateProgram, type StoragePort } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'
import { pgliteStorage } from '../dist/adapters/pglite.js'
import { postgresStorage } from '../dist/adapters/postgres.js'
import { toNodeHandler } from '../dist/http/index.js'
import { stripeHandler, verifyStripeSignature } from '../dist/providers/stripe.js'
import { countRoundTrips, type RoundTrips } from './round-trips.js'

const SECRET = 'whsec_bench'
const DATABASE_URL = process.env.DATABASE_URL
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const fmt = (value: number) => Math.round(value).toLocaleString('en')
/** Garbage left by the untimed setup is collected before each timed loop (run.ts passes --expose-gc). */
const collect = () => (globalThis as { gc?: () => void }).gc?.()

/** A signed invoice.paid of a referred customer, as Stripe sends it (signing is not timed). */
function signedInvoice(n: number): { body: string; signature: string } {
  // Signed when the round is prepared: a whole run takes longer than the 300 s tolerance.
  const created = Math.floor(Date.now() / 1000)
  const email = `handler${n}@example.com`
  const body = JSON.stringify({
    id: `evt_bench_${n}`, object: 'event', api_version: '2025-03-31.basil', created, livemode: false, pending_webhooks: 1, type: 'invoice.paid',
    data: { object: {
      id: `in_bench_${n}`, object: 'invoice', customer: `cus_bench_${n}`, customer_email: email, currency: 'usd', status: 'paid', billing_reason: 'manual',
      subtotal: 1999, total: 1999, total_excluding_tax: 1999, total_taxes: [], discounts: [], parent: null,
      // No `payments`: Stripe returns an invoice's payments only when expanded, never in a webhook.
      status_transitions: { paid_at: created, finalized_at: created, marked_uncollectible_at: null, voided_at: null },
    } },
  })
  return { body, signature: `t=${created},v1=${createHmac('sha256', SECRET).update(`${created}.${body}`).digest('hex')}` }
}

/** The signed invoice.paid of customer n as a fetch Request to the handler's route. */
function signedRequest(n: number): Request {
  const { body, signature } = signedInvoice(n)
  return new Request('http://bench/api/v1/providers/stripe/events', { method: 'POST', body, headers: { 'Stripe-Signature': signature } })
}

const directInput = (n: number) => ({ type: 'purchase' as const, email: `direct${n}@example.com`, baseValue: '19.99', baseValueCurrency: 'USD', reference: `in_direct_${n}` })

async function timed(count: number, work: (index: number) => Promise<unknown>): Promise<number> {
  collect()
  const started = performance.now()
  for (let index = 0; index < count; index += 1) await work(index)
  return count / ((performance.now() - started) / 1000)
}

interface Side {
  /** Untimed: what the round's calls need (customers referred by Ann, requests built). */
  prepare(first: number, count: number): Promise<void>
  call(n: number): Promise<unknown>
}

/** Alternates rounds of the handler side and the direct side; prints both medians and their ratio, returns the direct median. */
async function compare(label: string, rounds: number, perRound: number, next: () => number, handler: Side, direct: Side, names = ['handler', 'direct']): Promise<number> {
  const handlerRates: number[] = []
  const directRates: number[] = []
  for (let round = 0; round < rounds; round += 1) {
    for (const [side, rates] of [[handler, handlerRates], [direct, directRates]] as const) {
      const first = next()
      await side.prepare(first, perRound)
      rates.push(await timed(perRound, (index) => side.call(first + index)))
    }
  }
  // Each round's two sides ran back to back: the median of their ratios is steadier than a ratio of medians.
  const ratio = median(handlerRates.map((rate, round) => rate / directRates[round]!))
  // What an event costs beyond a direct create, in microseconds (median of the rounds).
  const extra = median(handlerRates.map((rate, round) => 1e6 / rate - 1e6 / directRates[round]!))
  console.log(
    `  ${label}: ${names[0]} ${fmt(median(handlerRates))}/s (${handlerRates.map(fmt).join(' / ')}); ${names[1]} ${fmt(median(directRates))}/s (${directRates.map(fmt).join(' / ')}); ratio ${ratio.toFixed(2)}; +${fmt(extra)} µs per event`,
  )
  return median(directRates)
}

/** Both paths pay for customers already referred by Ann (set up outside the timing). */
async function referCustomers(program: AffiliateProgram, affiliateId: number, prefix: string, first: number, count: number): Promise<void> {
  for (let n = first; n < first + count; n += 1) await program.referrals.create({ email: `${prefix}${n}@example.com`, affiliateId })
}

/** The direct side: conversions.create of customers `direct<n>`, referred by Ann beforehand. */
const directSide = (program: AffiliateProgram, affiliateId: number): Side => ({
  prepare: (first, count) => referCustomers(program, affiliateId, 'direct', first, count),
  call: (n) => program.conversions.create(directInput(n)),
})

/** Refers the round's customers `<prefix><n>` and signs their invoice.paid Requests (untimed); `request(n)` hands one out. */
function signedRequests(program: AffiliateProgram, affiliateId: number, prefix: string) {
  let requests = new Map<number, Request>()
  return {
    async prepare(first: number, count: number) {
      await referCustomers(program, affiliateId, prefix, first, count)
      requests = new Map()
      for (let n = first; n < first + count; n += 1) requests.set(n, signedRequest(n))
    },
    request: (n: number) => requests.get(n)!,
  }
}

/**
 * A direct create followed by the request work every fetch handler of a signed event does (body
 * read, signature check, Response), against the create alone: the ratio no handler can beat.
 */
function requestWorkComparison(program: AffiliateProgram, affiliateId: number): [Side, Side] {
  const answer = JSON.stringify({ received: true, duplicate: false, event_id: 'evt_bench_0', status: 'applied', detail: 'in_bench_0: created conversion 1 (purchase, commission 6.00 USD)', conversion_id: 1 })
  const direct = directSide(program, affiliateId)
  const { prepare, request } = signedRequests(program, affiliateId, 'direct')
  return [
    {
      prepare,
      async call(n) {
        await direct.call(n)
        const signed = request(n)
        if (verifyStripeSignature([SECRET], await signed.text(), signed.headers.get('stripe-signature'), new Date(), 300) !== null) throw new Error('bad signature')
        return new Response(answer, { status: 200, headers: { 'Content-Type': 'application/json' } })
      },
    },
    direct,
  ]
}

function fetchComparison(program: AffiliateProgram, storage: StoragePort, affiliateId: number): [Side, Side] {
  const handler = stripeHandler({ program, storage, webhookSecret: SECRET })
  const { prepare, request } = signedRequests(program, affiliateId, 'handler')
  return [
    {
      prepare,
      async call(n) {
        const response = await handler(request(n))
        if (response.status !== 200) throw new Error(`handler answered ${response.status}: ${await response.text()}`)
      },
    },
    directSide(program, affiliateId),
  ]
}

async function listen(listener: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener)
  // The untimed setup between rounds may take longer than the default 5 s keep-alive timeout.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

function post(agent: Agent, port: number, path: string, body: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'Content-Type': 'application/json', ...headers } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => (response.statusCode === 200 ? resolve(Buffer.concat(chunks).toString()) : reject(new Error(`answered ${response.statusCode}: ${Buffer.concat(chunks)}`))))
    })
    request.on('error', reject)
    request.end(body)
  })
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString()))
    req.on('error', reject)
  })
}

async function nodeComparison(program: AffiliateProgram, storage: StoragePort, affiliateId: number, work: (sides: [Side, Side]) => Promise<unknown>): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const viaHandler = await listen(toNodeHandler(stripeHandler({ program, storage, webhookSecret: SECRET })))
  // The baseline server: reads the body, creates the conversion named by the path, answers JSON.
  const bare = await listen((req, res) => {
    readBody(req)
      .then(() => program.conversions.create(directInput(Number(req.url!.slice(1)))))
      .then(({ conversion }) => {
        const body = JSON.stringify({ conversion_id: conversion.id })
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }).end(body)
      })
      .catch((error: unknown) => res.writeHead(500).end(String(error)))
  })
  let invoices = new Map<number, { body: string; signature: string }>()
  try {
    await work([
      {
        async prepare(first, count) {
          await referCustomers(program, affiliateId, 'handler', first, count)
          invoices = new Map()
          for (let n = first; n < first + count; n += 1) invoices.set(n, signedInvoice(n))
        },
        call(n) {
          const { body, signature } = invoices.get(n)!
          return post(agent, viaHandler.port, '/api/v1/providers/stripe/events', body, { 'Stripe-Signature': signature })
        },
      },
      {
        async prepare(first, count) {
          await referCustomers(program, affiliateId, 'direct', first, count)
          // The same bytes travel to the bare server as to the handler.
          invoices = new Map()
          for (let n = first; n < first + count; n += 1) invoices.set(n, signedInvoice(n))
        },
        call: (n) => post(agent, bare.port, `/${n}`, invoices.get(n)!.body, {}),
      },
    ])
  } finally {
    agent.destroy()
    await Promise.all([viaHandler.server, bare.server].map((server) => new Promise((resolve) => server.close(resolve))))
  }
}

/** Round trips per call of each side, BEGIN and COMMIT included (20 calls each, untimed). */
async function printRoundTrips(roundTrips: RoundTrips, next: () => number, [handler, direct]: [Side, Side]): Promise<void> {
  const perCall = async (side: Side) => {
    const first = next()
    await side.prepare(first, 20)
    const before = roundTrips.count
    for (let n = first; n < first + 20; n += 1) await side.call(n)
    return (roundTrips.count - before) / 20
  }
  console.log(`  round trips per call: handler ${await perCall(handler)}, direct ${await perCall(direct)}`)
}

async function bench(name: string, storage: StoragePort, sizes: { rounds: number; fetch: number; node: number }, roundTrips?: RoundTrips): Promise<void> {
  const program = await createAffiliateProgram({ storage })
  const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  let counter = 0
  const next = () => (counter += 1_000_000)
  console.log(`${name}: stripe invoice.paid through the handler vs direct conversions.create`)
  await compare('fetch, in-process', sizes.rounds, sizes.fetch, next, ...fetchComparison(program, storage, ann.id))
  // What the request work alone costs beside this adapter's database work: the best ratio a handler could reach.
  await compare('bound, in-process', sizes.rounds, sizes.fetch, next, ...requestWorkComparison(program, ann.id), ['create + request work', 'create alone'])
  await nodeComparison(program, storage, ann.id, (sides) => compare('node:http, loopback', sizes.rounds, sizes.node, next, ...sides))
  if (roundTrips) await printRoundTrips(roundTrips, next, fetchComparison(program, storage, ann.id))
  const expected = sizes.rounds * 2 * (2 * sizes.fetch + sizes.node) + (roundTrips ? 40 : 0)
  const total = (await program.conversions.list({ limit: 1 })).total
  if (total !== expected) throw new Error(`expected ${expected} conversions, found ${total}`)
  await program.close()
}

await bench('memory', memoryStorage(), { rounds: 7, fetch: 2_000, node: 1_000 })
await bench('pglite', pgliteStorage(), { rounds: 7, fetch: 100, node: 100 })
if (DATABASE_URL) {
  const schema = `affiliate_kit_providers_bench_${process.pid}`
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 })
  const roundTrips = countRoundTrips()
  try {
    await bench('postgresql', postgresStorage({ pool, schema }), { rounds: 7, fetch: 200, node: 200 }, roundTrips)
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await pool.end()
  }
} else console.log('postgresql: skipped (set DATABASE_URL)')
