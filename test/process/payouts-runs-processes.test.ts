// Payout runs from several processes on one PostgreSQL database, against the local PayPal and
// Stripe servers (docs/payouts.md "Payout runs"): two `affiliate-kit payouts run` at once, two
// `serve` whose schedule comes due together, and runs killed with SIGKILL while PayPal, then Stripe,
// was making a payout. Each affiliate is paid exactly once (one PayPal batch, one Stripe transfer)
// and its ledger is right to the cent.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { run, type Running } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'
import { SECRET_KEY, startFakeStripe } from '../support/payouts/stripe-fake.js'
import { DATABASE_URL } from '../support/sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-payout-runs')
const SETTINGS = { holdPeriodDays: 0, commission: { purchase: { type: 'percentage' as const, rate: 30 } }, payouts: { schedule: { day: 1 }, automatic: { paypal: true, stripe: true } } }
/** Affiliates 1..N: odd ones paid through PayPal, even ones through Stripe. */
const N = 24

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/** Affiliate i earned 30% of (100 + i) dollars: 30.30, 30.60, ... 37.20; 810.00 in all. */
const owed = (i: number) => ((3000 + 30 * i) / 100).toFixed(2)

async function setUp(options: { delayMs?: number } = {}) {
  const accounts = Array.from({ length: N / 2 }, (_, k) => `acct_aff${2 * (k + 1)}`)
  const paypal = await startFakePayPal({ statusFor: () => 'SUCCESS', ...options })
  const stripe = await startFakeStripe({ accounts, ...options })
  const database = await freshDatabase()
  const program: AffiliateProgram = await createAffiliateProgram({ storage: postgresStorage({ connectionString: database.url }), settings: SETTINGS })
  closing.push(
    () => paypal.close(),
    () => stripe.close(),
    () => database.drop(),
    () => program.close(),
  )
  const ids: number[] = []
  for (let i = 1; i <= N; i++) {
    const affiliate = await program.affiliates.create({ email: `aff${i}@example.com`, ...(i % 2 === 1 ? { paypalEmail: `aff${i}.paypal@example.com` } : {}) })
    if (i % 2 === 0) await program.providerPayouts.saveConnectedAccount(affiliate.id, `acct_aff${i}`)
    // Paid in October: payable since November 1 under the terms (termsDays 0).
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 + i, occurredAt: '2026-10-15T12:00:00Z' })
    ids.push(affiliate.id)
  }
  const dir = tempDir()
  const payoutProviders = { paypal: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: paypal.url }, stripe: { secretKey: SECRET_KEY, baseUrl: stripe.url }, syncIntervalSeconds: 1 }
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...SETTINGS, payoutProviders }))
  const payoutsRun = (...extra: string[]) => run(['payouts', 'run', '--database', database.url, '--config', 'config.json', ...extra], { cwd: dir })

  /** Each affiliate paid exactly once at the providers, and its ledger to the cent. */
  async function paidOnce() {
    for (let i = 1; i <= N; i++) {
      if (i % 2 === 1) {
        const batches = [...paypal.batches.values()].filter((batch) => batch.items.some((item) => item.receiver === `aff${i}.paypal@example.com`))
        expect(batches.map((batch) => batch.items.map((item) => item.value)), `aff${i}`).toEqual([[owed(i)]])
      } else {
        expect(stripe.transfers.filter((transfer) => transfer.destination === `acct_aff${i}`).map((transfer) => transfer.amount), `aff${i}`).toEqual([3000 + 30 * i])
      }
      const { earnings } = await program.affiliates.get(ids[i - 1]!)
      expect({ i, paid: earnings.paid, unpaid: earnings.unpaid, credit: earnings.credit }).toEqual({ i, paid: owed(i), unpaid: '0.00', credit: '0.00' })
    }
    const { totals } = await program.ledger.programBalances(new Date())
    expect({ total: totals.total, paid: totals.paid, unpaid: totals.unpaid, credit: totals.credit }).toEqual({ total: '810.00', paid: '810.00', unpaid: '0.00', credit: '0.00' })
    const payouts = await program.payouts.list({ limit: 100 })
    expect(payouts.total).toBe(N)
    expect(new Set(payouts.items.map((payout) => payout.affiliateId)).size).toBe(N)
  }
  return { paypal, stripe, program, database, dir, payoutsRun, paidOnce, ids }
}

/** The affiliates a `payouts run` paid itself (not those it found paid by another run). */
/** Payouts a run made and paid (not resumed), by count and by id; and those it resumed, by id. */
const paidLines = (output: string) => madePayouts(output).length
const payoutIds = (output: string, pattern: RegExp) => output.split('\n').flatMap((line) => [...line.matchAll(pattern)].map((match) => Number(match[1])))
const madePayouts = (output: string) => payoutIds(output, / {2}(?:paypal|stripe) {2}paid {2}payout (\d+)/g)
const resumedPayouts = (output: string) => payoutIds(output, / {2}(?:paypal|stripe) {2}paid \(resumed\) {2}payout (\d+)/g)

describe.skipIf(!DATABASE_URL)('payout runs across processes on PostgreSQL', () => {
  it('two `payouts run` at once: each affiliate paid exactly once, the ledger to the cent', async () => {
    const { paidOnce, payoutsRun, paypal } = await setUp({ delayMs: 40 })
    const dry = payoutsRun('--dry-run')
    expect(await dry.exited, dry.output()).toBe(0)
    expect(dry.output()).toContain(`(dry run, nothing sent): ${N} to send, 0 to send again, 0 skipped`)
    expect(paypal.batches.size).toBe(0)

    const runs: Running[] = [payoutsRun(), payoutsRun()]
    const codes = await Promise.all(runs.map((each) => each.exited))
    expect(codes, runs.map((each) => each.output()).join('\n----\n')).toEqual([0, 0])
    const paid = runs.map((each) => paidLines(each.output()))
    // Between them they made and paid each affiliate's payout once; what one made the other names
    // as paid by another run, or (a payout the other was still sending when it listed the period's)
    // sends again under the same provider key and names resumed: the provider pays it once.
    expect(paid[0]! + paid[1]!).toBe(N)
    const resumed = runs.map((each) => resumedPayouts(each.output()))
    const made = runs.map((each) => madePayouts(each.output()))
    expect(resumed[0]!.every((id) => made[1]!.includes(id)) && resumed[1]!.every((id) => made[0]!.includes(id)), runs.map((each) => each.output()).join('\n----\n')).toBe(true)
    console.log(`two concurrent runs paid ${paid[0]} and ${paid[1]} of ${N} affiliates (${resumed[0]!.length + resumed[1]!.length} resumed from the other)`)
    await paidOnce()
  }, 120_000)

  it('two `serve` whose schedule comes due together: one run of the period, each affiliate paid once', async () => {
    const { paidOnce, database, dir } = await setUp({ delayMs: 20 })
    const servers = [0, 1].map(() => run(['serve', '--port', '0', '--database', database.url, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: 'rgk_payoutruns0123456789abcdef0' } }))
    try {
      await Promise.all(servers.map((server) => server.waitFor(/listening on/)))
      const deadline = Date.now() + 60_000
      const ran = () => servers.map((server) => (server.output().match(/payout run \d{4}-\d{2} \(schedule\)/g) ?? []).length)
      while (ran()[0]! + ran()[1]! === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200))
      // A few more ticks: neither server runs the period again.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      expect(ran().sort(), servers.map((server) => server.output()).join('\n----\n')).toEqual([0, 1])
      const output = servers.map((server) => server.output()).join('\n')
      expect(output).toMatch(new RegExp(`payout run \\d{4}-\\d{2} \\(schedule\\): ${N} paid, 0 processing, 0 failed, 0 skipped`))
      await paidOnce()
    } finally {
      for (const server of servers) expect(await server.stop(), server.output()).toBe(0)
    }
  }, 120_000)

  it('kill -9 while PayPal makes a batch, then while Stripe makes a transfer: the next run sends both again under their keys; each paid once', async () => {
    const { paidOnce, payoutsRun, paypal, stripe, program } = await setUp()
    let killed: Running | undefined
    paypal.holdNextCreate(() => killed!.child.kill('SIGKILL'))
    killed = payoutsRun()
    await killed.exited
    expect(killed.child.signalCode).toBe('SIGKILL')
    // PayPal made the first PayPal affiliate's batch; its payout is processing with no batch id.
    expect(paypal.batches.size).toBe(1)
    const stuck = (await program.providerPayouts.listProcessing()).filter((sent) => sent.reference === null)
    expect(stuck.map((sent) => sent.provider)).toEqual(['paypal'])

    stripe.holdNextTransfer(() => killed!.child.kill('SIGKILL'))
    killed = payoutsRun()
    await killed.exited
    expect(killed.child.signalCode).toBe('SIGKILL')
    const transfersBefore = stripe.transfers.length

    const last = payoutsRun()
    expect(await last.exited, last.output()).toBe(0)
    expect(last.output()).toMatch(/paid \(resumed\)/)
    expect(stripe.transfers.length).toBeGreaterThanOrEqual(transfersBefore)
    await paidOnce()
    // Nothing is left to do: one more run sends nothing.
    const again = payoutsRun()
    expect(await again.exited).toBe(0)
    expect(again.output()).toContain('0 paid, 0 processing, 0 failed, 0 skipped (nobody is due)')
  }, 120_000)
})
