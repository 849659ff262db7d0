// `affiliate-kit payouts run [--dry-run]` (docs/payouts.md "Payout runs") on embedded PGlite: while
// `serve` holds the data directory the run goes through its local socket and its providers; once it
// is stopped, the command opens the directory itself with --config. Refused with one line when no
// provider is configured. Against the local PayPal server; the ledger to the cent.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { run, runToEnd } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'
import { migratedDataDir } from '../support/pglite-template.js'

const tempDir = tempDirs('affiliate-kit-cli-payouts-run')
const SETTINGS = { holdPeriodDays: 0, commission: { purchase: { type: 'percentage' as const, rate: 30 } }, payouts: { automatic: { paypal: true } } }
let fake: Awaited<ReturnType<typeof startFakePayPal>> | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

/** A PGlite directory where Ann earned 45.00 and Bob 60.00 (both with a PayPal email), Cat 3.00 (none). */
async function directory(dir: string) {
  const storage = pgliteStorage({ dataDir: migratedDataDir(join(dir, 'data')) })
  const program = await createAffiliateProgram({ storage, settings: SETTINGS })
  for (const [email, baseValue, paypal] of [['ann@example.com', 150, true], ['bob@example.com', 200, true], ['cat@example.com', 10, false]] as const) {
    const affiliate = await program.affiliates.create({ email, ...(paypal ? { paypalEmail: `pp.${email}` } : {}) })
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue })
  }
  await program.close()
}

async function balances(dir: string) {
  const program = await createAffiliateProgram({ storage: pgliteStorage({ dataDir: join(dir, 'data') }) })
  try {
    const rows = []
    for (const email of ['ann@example.com', 'bob@example.com', 'cat@example.com']) {
      const { earnings } = await program.affiliates.get(email)
      rows.push(`${email} paid ${earnings.paid} unpaid ${earnings.unpaid} credit ${earnings.credit}`)
    }
    return rows
  } finally {
    await program.close()
  }
}

describe('affiliate-kit payouts run', () => {
  it('goes through the server holding the PGlite directory: --dry-run sends nothing, the run pays each due affiliate once', async () => {
    fake = await startFakePayPal({ statusFor: () => 'SUCCESS' })
    const dir = tempDir()
    await directory(dir)
    const database = `pglite:${join(dir, 'data')}`
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...SETTINGS, payoutProviders: { paypal: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: fake.url }, scheduledRuns: false, syncIntervalSeconds: 3600 } }))
    const server = run(['serve', '--port', '0', '--database', database, '--config', 'config.json'], { cwd: dir })
    try {
      await server.waitFor(/listening on/)
      const dry = await runToEnd(['payouts', 'run', '--dry-run', '--database', database], { cwd: dir })
      expect(dry.code, dry.output).toBe(0)
      expect(dry.output.split('\n')).toEqual([
        'ann@example.com  45.00 USD  paypal  would_send',
        'bob@example.com  60.00 USD  paypal  would_send',
        'cat@example.com  3.00 USD  -  skipped  no PayPal email on file',
        `payout run ${new Date().toISOString().slice(0, 7)} (dry run, nothing sent): 2 to send, 0 to send again, 1 skipped`,
      ])
      expect(fake.batches.size).toBe(0)

      const paid = await runToEnd(['payouts', 'run', '--database', database], { cwd: dir })
      expect(paid.code, paid.output).toBe(0)
      expect(paid.output).toMatch(/^ann@example\.com {2}45\.00 USD {2}paypal {2}paid {2}payout \d+$/m)
      expect(paid.output).toMatch(/^bob@example\.com {2}60\.00 USD {2}paypal {2}paid {2}payout \d+$/m)
      expect(paid.output).toMatch(/: 2 paid, 0 processing, 0 failed, 1 skipped$/)
      expect(server.output()).toMatch(/payout run \d{4}-\d{2} \(cli\): 2 paid, 0 processing, 0 failed, 1 skipped/)
      const again = await runToEnd(['payouts', 'run', '--json', '--database', database], { cwd: dir })
      expect(JSON.parse(again.output)).toMatchObject({ dryRun: false, counts: { paid: 0, skipped: 1 } })
      expect(fake.batches.size).toBe(2)
    } finally {
      expect(await server.stop(), server.output()).toBe(0)
    }
    expect(await balances(dir)).toEqual([
      'ann@example.com paid 45.00 unpaid 0.00 credit 0.00',
      'bob@example.com paid 60.00 unpaid 0.00 credit 0.00',
      'cat@example.com paid 0.00 unpaid 3.00 credit 0.00',
    ])
  }, 90_000)

  it('with the server stopped it opens the directory with --config; without payoutProviders it refuses with one line', async () => {
    fake = await startFakePayPal({ statusFor: () => 'SUCCESS' })
    const dir = tempDir()
    await directory(dir)
    const database = `pglite:${join(dir, 'data')}`
    writeFileSync(join(dir, 'none.json'), JSON.stringify(SETTINGS))
    const refused = await runToEnd(['payouts', 'run', '--database', database, '--config', 'none.json'], { cwd: dir })
    expect(refused.code).not.toBe(0)
    expect(refused.output).toBe('affiliate-kit: payouts run needs the server\'s config file with payoutProviders (--config <file>): none.json has none')
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ payoutProviders: { paypal: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: fake.url } } }))
    const paid = await runToEnd(['payouts', 'run', '--database', database, '--config', 'config.json'], { cwd: dir })
    expect(paid.code, paid.output).toBe(0)
    expect(paid.output).toMatch(/: 2 paid, 0 processing, 0 failed, 1 skipped$/)
    expect(fake.batches.size).toBe(2)
  }, 90_000)
})
