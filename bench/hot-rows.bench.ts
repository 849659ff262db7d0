// Hot rows on PostgreSQL (the built dist/; `npm run build` first; needs DATABASE_URL): one
// customer's purchases per second beside distinct customers' of the same affiliate, 16 in flight
// (targets: ratio >= 0.8), and one customer's rate after 10,000 of its payments beside its rate at
// the start (>= 0.9). Each purchase of a customer locks its affiliate, then the customer
// (core/ports/row-locks.ts): one customer's purchases run one after another, as one affiliate's do.
import { postgresStorage } from '../dist/adapters/postgres.js'
import { createAffiliateProgram } from '../dist/index.js'
import { freshDatabase } from './mixed-load.js'

const DATABASE_URL = process.env.DATABASE_URL
const IN_FLIGHT = 16
const ROUNDS = 3
const PER_ROUND = 1_000
const HISTORY = 10_000

if (!DATABASE_URL) {
  console.log('skipped: DATABASE_URL is not set')
  process.exit(0)
}

const database = await freshDatabase(DATABASE_URL)
const storage = postgresStorage({ connectionString: database.url, max: IN_FLIGHT })
const program = await createAffiliateProgram({ storage, settings: { holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { rate: 10 } } } })
const ann = await program.affiliates.create({ email: 'ann@example.com' })
let references = 0

/** Purchases per second of `count` purchases, IN_FLIGHT at a time, the customer of each chosen by `customer`. */
async function rate(count: number, customer: (n: number) => string): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const n = next++
        await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: customer(n), baseValue: '49.00', reference: `hot_${references++}` })
      }
    }),
  )
  return count / ((performance.now() - started) / 1000)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const ratios: number[] = []
let distinctCustomers = 0
for (let round = 1; round <= ROUNDS; round += 1) {
  // The two sides take turns within the round, so a slow stretch of the machine lands on both.
  const one = await rate(PER_ROUND, () => 'one@example.com')
  const distinct = await rate(PER_ROUND, () => `c${distinctCustomers++}@example.com`)
  ratios.push(one / distinct)
  console.log(`round ${round}: one customer ${one.toFixed(0)}/s, distinct customers of the same affiliate ${distinct.toFixed(0)}/s, ratio ${(one / distinct).toFixed(2)}`)
}
console.log(`one customer vs distinct customers, ${IN_FLIGHT} in flight: median ratio ${median(ratios).toFixed(2)} (target >= 0.8)`)

// A customer with HISTORY payments beside one at the start of its history, taking turns within
// each round (the machine's pace changes by the minute).
for (let paid = 0; paid < HISTORY; paid += PER_ROUND) await rate(PER_ROUND, () => 'long@example.com')
const histories: number[] = []
for (let round = 1; round <= ROUNDS; round += 1) {
  const fresh = await rate(PER_ROUND, () => `fresh${round}@example.com`)
  const long = await rate(PER_ROUND, () => 'long@example.com')
  histories.push(long / fresh)
  console.log(`round ${round}: a customer's first ${PER_ROUND} payments ${fresh.toFixed(0)}/s, one past ${HISTORY.toLocaleString('en')} payments ${long.toFixed(0)}/s, ratio ${(long / fresh).toFixed(2)}`)
}
console.log(`one customer after ${HISTORY.toLocaleString('en')} payments vs at its start: median ratio ${median(histories).toFixed(2)} (target >= 0.9)`)

await storage.close()
await database.drop()
