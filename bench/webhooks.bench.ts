// Webhooks (the built dist/, `npm run build` first): deliveries per second to a local receiver
// (another process) with concurrency 16, next to a baseline of bare keep-alive POSTs of the same
// body at the same concurrency (alternating rounds after a warm-up of both; medians); and
// conversion creates per second with 3 subscribed endpoints next to none (alternating rounds, medians). Prints figures and
// ratios, asserts nothing.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { createAffiliateProgram, createWebhookDispatcher, EVENT_TYPES } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'
import { postgresStorage } from '../dist/adapters/postgres.js'
import pg from 'pg'

const DELIVERIES = 5000
const CONCURRENCY = 16
const CREATES = 20_000
/** Measured rounds of deliveries and of bare POSTs, alternating, after one warm-up round of each. */
const ROUNDS = 5
/** Alternating runs of creates with and without endpoints. */
const CREATE_ROUNDS = 5
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
/** run.ts passes --expose-gc. */
const collect = () => (globalThis as { gc?: () => void }).gc?.()

const receiverSource = `
  const http = require('node:http')
  let count = 0
  const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { count++; res.writeHead(200).end('ok') }) })
  server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

async function startReceiver(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', receiverSource], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))))
  return { url: `http://127.0.0.1:${port}/hooks`, stop: () => child.kill() }
}

/** Baseline: the same number of POSTs over a keep-alive agent, CONCURRENCY at a time. */
async function barePosts(url: string, body: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
        response.resume()
        response.on('end', resolve)
      })
      request.on('error', reject)
      request.end(body)
    })
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < DELIVERIES) {
        next++
        await post()
      }
    }),
  )
  const perSecond = DELIVERIES / ((performance.now() - started) / 1000)
  agent.destroy()
  return perSecond
}

async function dispatcherRun(url: string): Promise<{ perSecond: number; body: string }> {
  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage, settings: { allowPrivateNetworks: true } })
  await program.webhooks.create({ url, events: ['referral_signed_up'], secret: 'bench-secret' })
  const affiliate = await program.affiliates.create({ email: 'bench@example.com' })
  for (let index = 0; index < DELIVERIES; index++) {
    await program.referrals.create({ email: `r${index}@example.com`, affiliateId: affiliate.id })
  }
  // The baseline posts this event's body; its 1 ms lease has lapsed when the dispatcher starts.
  const [sample] = await storage.outbox.claim({ now: new Date(), limit: 1, leaseMs: 1 })
  if (!sample) throw new Error('no delivery was queued')
  // The run ends at the last success, told by onAttempt: polling the delivery log instead would
  // add a listing of every delivery to the figure every few milliseconds.
  let succeeded = 0
  let allSucceeded = () => {}
  const finished = new Promise<void>((resolve) => (allSucceeded = resolve))
  const dispatcher = createWebhookDispatcher({
    storage,
    onAttempt: (report) => {
      if (report.outcome === 'succeeded' && ++succeeded === DELIVERIES) allSucceeded()
    },
  })
  const started = performance.now()
  dispatcher.start({ concurrency: CONCURRENCY, pollIntervalMs: 5 })
  await finished
  const perSecond = DELIVERIES / ((performance.now() - started) / 1000)
  await dispatcher.stop()
  return { perSecond, body: sample.event.body }
}

type Storage = ReturnType<typeof memoryStorage>

async function createsPerSecond(endpoints: number, storage: Storage = memoryStorage(), count = CREATES): Promise<number> {
  const program = await createAffiliateProgram({ storage })
  for (let index = 0; index < endpoints; index++) {
    await program.webhooks.create({ url: `https://hooks${index}.example.com/in`, events: [...EVENT_TYPES], secret: 's' })
  }
  const affiliate = await program.affiliates.create({ email: 'c@example.com' })
  const started = performance.now()
  for (let index = 0; index < count; index++) {
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 19.99, reference: `ch_${index}` })
  }
  const perSecond = count / ((performance.now() - started) / 1000)
  await storage.close()
  return perSecond
}

/**
 * Runs of creates with no endpoints and with 3, alternating over CREATE_ROUNDS rounds (each run on
 * fresh storage, garbage of the previous run collected first); medians of each side.
 */
async function alternateCreates(run: (endpoints: number, round: number) => Promise<number>): Promise<{ none: number; three: number }> {
  const none: number[] = []
  const three: number[] = []
  for (let round = 0; round < CREATE_ROUNDS; round++) {
    for (const [endpoints, rates] of [[0, none], [3, three]] as const) {
      collect()
      rates.push(await run(endpoints, round))
    }
  }
  return { none: median(none), three: median(three) }
}

/** The same comparison on PostgreSQL (fresh schemas), when DATABASE_URL is set. */
async function postgresCreates(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) return console.log('  (PostgreSQL comparison skipped: DATABASE_URL is not set)')
  const schemas = [0, 3].map((endpoints) => `bench_webhooks_${endpoints}_${process.pid}`)
  try {
    const { none, three } = await alternateCreates((endpoints, round) => createsPerSecond(endpoints, postgresStorage({ connectionString: url, schema: `${schemas[endpoints === 0 ? 0 : 1]}_${round}` }), 1000))
    const fmt = (value: number) => Math.round(value).toLocaleString('en')
    console.log(`conversion creates on PostgreSQL with 3 subscribed endpoints: ${fmt(three)}/s, median of ${CREATE_ROUNDS} rounds alternating with none (target >= 90% of none)`)
    console.log(`  baseline, no endpoints: ${fmt(none)}/s; ratio ${(three / none).toFixed(2)}`)
  } finally {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    for (const schema of schemas) for (let round = 0; round < CREATE_ROUNDS; round++) await client.query(`DROP SCHEMA IF EXISTS "${schema}_${round}" CASCADE`)
    await client.end()
  }
}

const receiver = await startReceiver()
try {
  // node:http warms up on both sides (client and receiver) before either is measured; then rounds
  // alternate between the dispatcher and the bare POSTs and the medians are compared.
  const { body } = await dispatcherRun(receiver.url)
  await barePosts(receiver.url, body)
  const deliveries: number[] = []
  const baselines: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    collect()
    deliveries.push((await dispatcherRun(receiver.url)).perSecond)
    collect()
    baselines.push(await barePosts(receiver.url, body))
  }
  // Each round's pair ran back to back: the median of their ratios is steadier than a ratio of medians.
  const ratio = median(deliveries.map((perSecond, round) => perSecond / baselines[round]!))
  const fmt = (value: number) => Math.round(value).toLocaleString('en')
  console.log(`webhook deliveries: ${fmt(median(deliveries))}/s with concurrency ${CONCURRENCY} (target >= 500/s; rounds ${deliveries.map(fmt).join(' / ')})`)
  console.log(`  baseline, bare keep-alive POSTs of the same body: ${fmt(median(baselines))}/s (${baselines.map(fmt).join(' / ')}); ratio ${ratio.toFixed(2)} (median of the rounds' ratios; target >= 0.60)`)
  const { none, three } = await alternateCreates((endpoints) => createsPerSecond(endpoints))
  console.log(`conversion creates in memory with 3 subscribed endpoints: ${fmt(three)}/s, median of ${CREATE_ROUNDS} rounds alternating with none (target >= 90% of none)`)
  console.log(`  baseline, no endpoints: ${fmt(none)}/s; ratio ${(three / none).toFixed(2)}`)
  await postgresCreates()
} finally {
  receiver.stop()
}
