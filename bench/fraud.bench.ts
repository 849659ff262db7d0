// Fraud rules (the built dist/; `npm run build` first): conversion creates per second with every
// fraud rule on (each set to review, amountAbove and signupsPerVisitorPerDay included) and a
// fraudCheck, every conversion naming its click and card so that each signal is read, next to the
// same creates under today's rules (default settings: the self-referral rule only), measured in
// the same run on the memory adapter and PGlite. Rounds alternate between the two; medians are
// reported, and the ratio (target: >= 0.9).
import { createHmac } from 'node:crypto'
import { createAffiliateProgram, type AffiliateProgram, type ProjectSettingsInput, type StoragePort } from '../dist/index.js'
import { memoryStorage } from '../dist/adapters/memory.js'
import { pgliteStorage } from '../dist/adapters/pglite.js'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const fmt = (value: number) => Math.round(value).toLocaleString('en')
const collect = () => (globalThis as { gc?: () => void }).gc?.()

const EVERY_RULE: ProjectSettingsInput['fraud'] = {
  selfReferral: 'review',
  sameVisitor: 'review',
  disposableEmail: 'review',
  paidAdsClick: 'review',
  amountAbove: { amount: '5000.00', action: 'review' },
  signupsPerVisitorPerDay: { max: 1000, action: 'review' },
}

/** A signed referral of `code` for a visitor, as the tracking handler gives it (src/core/signed-referral.ts). */
function signedClick(salt: string, code: string, visitor: string): string {
  const expires = Math.floor(Date.now() / 1000) + 86_400
  const signature = createHmac('sha256', salt).update(`affiliate-kit referral\n${code}\n${expires}\n${visitor}`).digest('base64url').slice(0, 22)
  return `${code}.${expires}.${visitor}.${signature}`
}

async function side(storage: StoragePort, project: string, fraud: boolean) {
  const program: AffiliateProgram = await createAffiliateProgram({
    storage,
    project,
    ...(fraud ? { settings: { fraud: EVERY_RULE }, fraudCheck: () => 'allow' as const } : {}),
  })
  const codes: string[] = []
  for (let index = 0; index < 20; index += 1) codes.push((await program.affiliates.create({ email: `a${index}@example.com`, referralCode: `AFF${index}` })).referralCode)
  const salt = await storage.tracking.visitorSalt(program.projectId, 'bench-salt')
  const clicks = codes.map((code, index) => signedClick(salt, code, `visitor${String(index).padStart(9, '0')}`))
  let next = 0
  return async (count: number): Promise<number> => {
    const started = performance.now()
    for (let index = 0; index < count; index += 1) {
      const n = next++
      const at = n % codes.length
      // One in four a signup (the signups-per-visitor count is read for signups only).
      const base = n % 4 === 0 ? { type: 'signup' as const } : { type: 'purchase' as const, baseValue: 19.99 }
      await program.conversions.create({
        ...base,
        referralCode: codes[at]!,
        email: `customer${n}@example.com`,
        reference: `ch_${n}`,
        ...(fraud ? { click: clicks[at]!, cardFingerprint: `fp_${n}` } : {}),
      })
    }
    return count / ((performance.now() - started) / 1000)
  }
}

async function bench(name: string, storage: StoragePort, rounds: number, perRound: number) {
  const today = await side(storage, `${name}-today`, false)
  const withFraud = await side(storage, `${name}-fraud`, true)
  await today(perRound / 10)
  await withFraud(perRound / 10)
  const todayRates: number[] = []
  const fraudRates: number[] = []
  for (let round = 0; round < rounds; round += 1) {
    collect()
    todayRates.push(await today(perRound))
    collect()
    fraudRates.push(await withFraud(perRound))
  }
  const ratios = todayRates.map((rate, index) => fraudRates[index]! / rate)
  console.log(`${name}: creates/s with every fraud rule on ${fmt(median(fraudRates))} vs today's rules ${fmt(median(todayRates))}; ratio ${median(ratios).toFixed(2)} (median of ${rounds} rounds' ratios: ${ratios.map((ratio) => ratio.toFixed(2)).join(' / ')}; target >= 0.9)`)
  await storage.close()
}

await bench('memory', memoryStorage(), 7, 10_000)
await bench('pglite', pgliteStorage(), 5, 500)
