// Core in memory (the built dist/, as users run it; `npm run build` first): conversion creates per second and heap per 100,000 conversions, next to a
// baseline of the same number of bare storage inserts (no rules) measured in the same run.
import { createAffiliateProgram } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'
import type { Conversion } from '../dist/index.js'

const COUNT = 100_000
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})

function heapMb(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

async function libraryRun() {
  const program = await createAffiliateProgram({ storage: memoryStorage() })
  const affiliates = []
  for (let index = 0; index < 100; index += 1) affiliates.push((await program.affiliates.create({ email: `a${index}@example.com` })).id)
  const heapBefore = heapMb()
  const started = performance.now()
  for (let index = 0; index < COUNT; index += 1) {
    await program.conversions.create({
      type: 'purchase',
      affiliateId: affiliates[index % affiliates.length]!,
      baseValue: 19.99,
      reference: `ch_${index}`,
    })
  }
  const seconds = (performance.now() - started) / 1000
  const heap = heapMb() - heapBefore
  return { perSecond: COUNT / seconds, heap, keep: program }
}

async function baselineRun() {
  const storage = memoryStorage()
  const now = new Date()
  const row: Omit<Conversion, 'id'> = {
    projectId: 'p', affiliateId: 1, referredUserId: null, customerEmail: null, type: 'purchase', value: 600n,
    baseValue: 1999n, baseCurrency: 'USD', refundedBaseValue: 0n, paid: false, paidByPayoutId: null, status: 'active',
    holdUntil: now, reference: null, fingerprint: null, couponCodeUsed: null, basis: 'purchase', commissionType: 'percentage',
    commissionRate: '30', tier: 1, parentConversionId: null, refundReason: null, createdAt: now,
  }
  const started = performance.now()
  for (let index = 0; index < COUNT; index += 1) {
    await storage.transaction((tx) => tx.conversions.insert({ ...row, reference: `ch_${index}`, createdAt: new Date() }))
  }
  return { perSecond: COUNT / ((performance.now() - started) / 1000) }
}

const baseline = await baselineRun()
gc() // the baseline's rows are unreachable now; don't let them slow the library's GC
const library = await libraryRun()
console.log(`in-memory conversion creates: ${Math.round(library.perSecond).toLocaleString('en')}/s (target >= 50,000/s)`)
console.log(`  baseline, bare storage inserts in a transaction: ${Math.round(baseline.perSecond).toLocaleString('en')}/s; ratio ${(library.perSecond / baseline.perSecond).toFixed(2)}`)
console.log(`heap per ${COUNT.toLocaleString('en')} conversions: ${library.heap.toFixed(1)} MB (target < 150 MB)`)
void library.keep
