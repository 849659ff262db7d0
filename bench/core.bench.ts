// Core in memory (the built dist/, as users run it; `npm run build` first): conversion creates
// per second and heap per 100,000 conversions, next to two baselines measured in the same run:
// bare storage inserts of the conversion row alone (no rules, no counters), and bare inserts that
// also make the writes a create makes with its row (the affiliate's running totals, the daily
// counters, the ledger movement; with no webhook endpoint the outbox stores nothing for either).
// Rounds alternate between the three; medians are reported.
import { createAffiliateProgram, type AffiliateProgram, type Conversion, type StoragePort } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'

const ROUNDS = 5
const PER_ROUND = 20_000
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})

function heapMb(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function timed(count: number, work: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let index = 0; index < count; index += 1) await work(index)
  return count / ((performance.now() - started) / 1000)
}

const program: AffiliateProgram = await createAffiliateProgram({ storage: memoryStorage() })
const affiliates: number[] = []
for (let index = 0; index < 100; index += 1) affiliates.push((await program.affiliates.create({ email: `a${index}@example.com` })).id)

let bare: StoragePort | null = memoryStorage()
// The second baseline's store: a project and affiliates of its own, for the counter writes to land on.
let counted: StoragePort | null = memoryStorage()
let countedProgram: AffiliateProgram | null = await createAffiliateProgram({ storage: counted })
const countedAffiliates: number[] = []
for (let index = 0; index < 100; index += 1) countedAffiliates.push((await countedProgram!.affiliates.create({ email: `a${index}@example.com` })).id)
const countedProject = (await counted.projects.getByName('default'))!.id
const now = new Date()
const row: Omit<Conversion, 'id'> = {
  projectId: 'p', affiliateId: 1, referredUserId: null, customerEmail: null, type: 'purchase', value: 600n,
  baseValue: 1999n, baseCurrency: 'USD', refundedBaseValue: 0n, paid: false, paidByPayoutId: null, status: 'active',
  holdUntil: now, reference: null, fingerprint: null, couponCodeUsed: null, basis: 'purchase', commissionType: 'percentage',
  commissionRate: '30', tier: 1, parentConversionId: null, refundReason: null, productId: null, ruleSource: 'project',
  commissionAmount: null, reviewReason: null, clickVisitor: null, cardFingerprint: null, clickId: null, revenue: null, createdAt: now,
}

const heapBefore = heapMb()
const libraryRates: number[] = []
const baselineRates: number[] = []
const countedRates: number[] = []
for (let round = 0; round < ROUNDS; round += 1) {
  const offset = round * PER_ROUND
  libraryRates.push(
    await timed(PER_ROUND, (index) =>
      program.conversions.create({
        type: 'purchase',
        affiliateId: affiliates[index % affiliates.length]!,
        baseValue: 19.99,
        reference: `ch_${offset + index}`,
      }),
    ),
  )
  baselineRates.push(
    await timed(PER_ROUND, (index) =>
      bare!.transaction((tx) => tx.conversions.insert({ ...row, reference: `ch_${offset + index}`, createdAt: new Date() })),
    ),
  )
  // What the create writes for this conversion (an active purchase, no hold, no referred user).
  countedRates.push(
    await timed(PER_ROUND, (index) =>
      counted!.transaction((tx) => {
        const at = new Date()
        const conversion = { ...row, projectId: countedProject, affiliateId: countedAffiliates[index % countedAffiliates.length]!, reference: `ch_${offset + index}`, holdUntil: at, createdAt: at }
        return tx.conversions.insert(conversion, {
          totals: { countedValue: row.value, paidValue: 0n, credit: 0n, purchases: 1 },
          day: at.toISOString().slice(0, 10),
          daily: { commission: row.value, purchases: 1, revenue: row.baseValue! },
          ledgerAt: new Date(),
        })
      }),
    ),
  )
}
bare = null // only the library's rows stay reachable for the heap figure
counted = null
countedProgram = null
const heap = heapMb() - heapBefore

const library = median(libraryRates)
const baseline = median(baselineRates)
const countedBaseline = median(countedRates)
const round = (value: number) => Math.round(value).toLocaleString('en')
console.log(`in-memory conversion creates: ${round(library)}/s median of ${ROUNDS} rounds (${libraryRates.map(round).join(' / ')}) (target >= 50,000/s)`)
console.log(`  baseline, bare storage inserts in a transaction: ${round(baseline)}/s; ratio ${(library / baseline).toFixed(2)}`)
console.log(`  baseline, bare storage inserts with the create's own writes (totals, daily counters, ledger movement): ${round(countedBaseline)}/s; ratio ${(library / countedBaseline).toFixed(2)}`)
console.log(`heap per ${(ROUNDS * PER_ROUND).toLocaleString('en')} conversions: ${heap.toFixed(1)} MB (target < 150 MB)`)
void program
void countedProgram
