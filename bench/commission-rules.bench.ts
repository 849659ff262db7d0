// Commission and fraud rules (the built dist/; `npm run build` first): conversion creates per
// second under the full configuration, next to the same requests under today's rules,
// measured in the same run on the memory adapter and PGlite. The full configuration: 10 products
// (one excluded), renewals in 3 stages capped by maxPayments, 5 performance tiers by month, one
// affiliate in ten with its own rules, every fraud rule on (each set to review) and a fraudCheck.
// Today's rules: one purchase rate, a recurring rate for 12 months, the default fraud settings.
// Both sides get identical inputs: customers paying in turn (most payments are renewals), one
// conversion in five a signup, each naming its click and card so that every fraud signal is read.
// Within each round the two take turns every few creates; the median of the rounds' ratios is
// reported (target >= 0.9).
import { createHmac } from 'node:crypto'
import { createAffiliateProgram, type AffiliateProgram, type ProjectSettingsInput, type StoragePort } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'
import { pgliteStorage } from '../dist/adapters/pglite.js'

const AFFILIATES = 100
const CUSTOMERS = 2_000
const PRODUCTS = Array.from({ length: 10 }, (_, index) => `prod_${index}`)
const pct = (rate: number) => ({ type: 'percentage' as const, rate })
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const fmt = (value: number) => Math.round(value).toLocaleString('en')
const collect = () => (globalThis as { gc?: () => void }).gc?.()

const TODAY: ProjectSettingsInput = { commission: { purchase: pct(30), recurring: { rate: 20, durationMonths: 12 } } }

const FULL: ProjectSettingsInput = {
  commission: {
    purchase: pct(30),
    recurring: { maxPayments: 24, stages: [{ payments: 3, rate: 40 }, { payments: 6, rate: 25 }, { rate: 20 }] },
    // Products 0-4 have their own purchase rate; 5-8 their own renewal rate (purchases fall through to the tier or the project); 9 is excluded.
    products: Object.fromEntries(PRODUCTS.map((id, index) => [id, index === 9 ? { excluded: true as const } : index < 5 ? { purchase: pct(10 + index) } : { recurring: { rate: 15 } }])),
    // Thresholds the affiliates cross during the run, so every tier is held by some.
    tiers: [
      { name: 'Bronze', minRevenue: '100.00', purchase: pct(31) },
      { name: 'Silver', minRevenue: '500.00', purchase: pct(32) },
      { name: 'Gold', minRevenue: '1000.00', purchase: pct(33), recurring: { rate: 22 } },
      { name: 'Platinum', minCustomers: 15, purchase: pct(34), recurring: { rate: 24 } },
      { name: 'Diamond', minRevenue: '5000.00', purchase: pct(35), recurring: { rate: 25 } },
    ],
    tierPeriod: 'month',
  },
  fraud: {
    selfReferral: 'review',
    sameVisitor: 'review',
    disposableEmail: 'review',
    paidAdsClick: 'review',
    amountAbove: { amount: '5000.00', action: 'review' },
    signupsPerVisitorPerDay: { max: 10_000, action: 'review' },
  },
}

/** A signed referral of `code` for a visitor, as the tracking handler gives it (src/core/model/signed-referral.ts). */
function signedClick(salt: string, code: string, visitor: string): string {
  const expires = Math.floor(Date.now() / 1000) + 86_400
  const signature = createHmac('sha256', salt).update(`affiliate-kit referral\n${code}\n${expires}\n${visitor}`).digest('base64url').slice(0, 22)
  return `${code}.${expires}.${visitor}.${signature}`
}

/** A program with the settings and its affiliates; the function it returns creates `count` conversions and answers creates/s. */
async function side(storage: StoragePort, project: string, full: boolean) {
  const program: AffiliateProgram = await createAffiliateProgram({ storage, project, settings: full ? FULL : TODAY, ...(full ? { fraudCheck: () => 'allow' as const } : {}) })
  const codes: string[] = []
  for (let index = 0; index < AFFILIATES; index += 1) {
    // One affiliate in ten has its own rules under the full configuration.
    const own = full && index % 10 === 0 ? { commission: { purchase: pct(50) } } : {}
    codes.push((await program.affiliates.create({ email: `a${index}@example.com`, referralCode: `AFF${index}`, ...own })).referralCode)
  }
  const salt = await storage.tracking.visitorSalt(program.projectId, 'bench-salt')
  const clicks = codes.map((code, index) => signedClick(salt, code, `visitor${String(index).padStart(9, '0')}`))
  let next = 0
  /** Creates `count` conversions; answers the milliseconds they took. */
  return async (count: number): Promise<number> => {
    const started = performance.now()
    for (let index = 0; index < count; index += 1) {
      const n = next++
      const customer = n % CUSTOMERS
      const at = customer % codes.length
      const kind = n % 5 === 0 ? { type: 'signup' as const } : { type: 'purchase' as const, baseValue: 19.99, productId: PRODUCTS[customer % PRODUCTS.length]! }
      await program.conversions.create({ ...kind, referralCode: codes[at]!, email: `c${customer}@example.com`, reference: `ch_${n}`, click: clicks[at]!, cardFingerprint: `fp_${customer}` })
    }
    return performance.now() - started
  }
}

async function bench(name: string, storage: StoragePort, rounds: number, perRound: number, block: number) {
  const today = await side(storage, `${name}-today`, false)
  const full = await side(storage, `${name}-full`, true)
  await today(perRound / 10)
  await full(perRound / 10)
  const todayRates: number[] = []
  const fullRates: number[] = []
  for (let round = 0; round < rounds; round += 1) {
    collect()
    // Within a round the sides take turns every `block` creates, so that a slow second of the
    // machine lands on both sides alike instead of on whichever side was running.
    let [todayMs, fullMs] = [0, 0]
    for (let done = 0; done < perRound; done += block) {
      todayMs += await today(block)
      fullMs += await full(block)
    }
    todayRates.push(perRound / (todayMs / 1000))
    fullRates.push(perRound / (fullMs / 1000))
  }
  const ratios = todayRates.map((rate, index) => fullRates[index]! / rate)
  console.log(`${name}: creates/s with 10 products, 3 stages, 5 tiers, every fraud rule on: ${fmt(median(fullRates))} (${fullRates.map(fmt).join(' / ')})`)
  console.log(`  vs today's rules, same inputs: ${fmt(median(todayRates))} (${todayRates.map(fmt).join(' / ')}); ratio ${median(ratios).toFixed(2)} (median of ${rounds} rounds' ratios: ${ratios.map((ratio) => ratio.toFixed(2)).join(' / ')}; target >= 0.9)`)
  await storage.close()
}

// Enough rounds that one round's garbage collection or timer does not move the median (PGlite rounds of 500 ranged 0.66-0.89).
await bench('memory', memoryStorage(), 11, 10_000, 100)
await bench('pglite', pgliteStorage(), 9, 1_000, 20)
