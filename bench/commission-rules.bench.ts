// Commission rules in memory (the built dist/; `npm run build` first): conversion creates per
// second under a price list of 10 products (one excluded), renewals in 3 stages capped by
// maxPayments and an affiliate with its own rules, next to the same requests under today's rules
// (one purchase rate, a recurring rate for 12 months) measured in the same run. Both programs get
// identical inputs: 2,000 customers each paying in turn, so most payments are renewals. Rounds
// alternate between the two; medians are reported. (Performance tiers and fraud rules are not in
// this branch: the full target adds them.)
import { createAffiliateProgram, type AffiliateProgram } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'

const ROUNDS = 5
const PER_ROUND = 20_000
const CUSTOMERS = 2_000
const PRODUCTS = Array.from({ length: 10 }, (_, index) => `prod_${index}`)
const pct = (rate: number) => ({ type: 'percentage' as const, rate })

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function programWith(commission: Parameters<typeof createAffiliateProgram>[0]['settings']): Promise<{ program: AffiliateProgram; affiliates: number[] }> {
  const program = await createAffiliateProgram({ storage: memoryStorage(), ...(commission ? { settings: commission } : {}) })
  const affiliates: number[] = []
  for (let index = 0; index < 100; index += 1) {
    // One affiliate in ten has its own rules (they apply only under the price list).
    const own = index % 10 === 0 ? { commission: { purchase: pct(50) } } : {}
    affiliates.push((await program.affiliates.create({ email: `a${index}@example.com`, ...(commission?.commission?.products ? own : {}) })).id)
  }
  return { program, affiliates }
}

const today = await programWith({ commission: { purchase: pct(30), recurring: { rate: 20, durationMonths: 12 } } })
const priceList = await programWith({
  commission: {
    purchase: pct(30),
    recurring: { maxPayments: 24, stages: [{ payments: 3, rate: 40 }, { payments: 6, rate: 25 }, { rate: 20 }] },
    products: Object.fromEntries(PRODUCTS.map((id, index) => [id, index === 9 ? { excluded: true as const } : { purchase: pct(10 + index) }])),
  },
})

async function creates(target: { program: AffiliateProgram; affiliates: number[] }, offset: number): Promise<number> {
  const started = performance.now()
  for (let index = 0; index < PER_ROUND; index += 1) {
    const n = offset + index
    const customer = n % CUSTOMERS
    await target.program.conversions.create({
      type: 'purchase',
      affiliateId: target.affiliates[customer % target.affiliates.length]!,
      email: `c${customer}@example.com`,
      productId: PRODUCTS[customer % PRODUCTS.length]!,
      baseValue: 19.99,
      reference: `ch_${n}`,
    })
  }
  return PER_ROUND / ((performance.now() - started) / 1000)
}

const rulesRates: number[] = []
const todayRates: number[] = []
for (let round = 0; round < ROUNDS; round += 1) {
  rulesRates.push(await creates(priceList, round * PER_ROUND))
  todayRates.push(await creates(today, round * PER_ROUND))
}
const rules = median(rulesRates)
const baseline = median(todayRates)
const shown = (value: number) => Math.round(value).toLocaleString('en')
console.log(`creates with 10 products, 3 stages, maxPayments, affiliate rules: ${shown(rules)}/s median of ${ROUNDS} rounds (${rulesRates.map(shown).join(' / ')})`)
console.log(`  baseline, today's rules (one rate, 12 months of renewals), same inputs: ${shown(baseline)}/s; ratio ${(rules / baseline).toFixed(2)} (target >= 0.9)`)
