// Automatic payouts run by the standalone server (docs/payouts.md "Running it"): with
// `payoutProviders` in the config, `affiliate-kit serve` resumes at start the payouts a stopped
// process left processing, syncs them on a schedule, and answers PayPal's signed item webhooks.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { payoutSync } from '../../src/cli/payouts-mount.js'
import { loadConfig } from '../../src/cli/config.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { createLogger } from '../../src/ops/logger.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { earnings } from '../support/payouts/earnings.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal, WEBHOOK_ID } from '../support/payouts/paypal-fake.js'
import { DATABASE_URL } from '../support/sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-payouts')
const SETTINGS = { holdPeriodDays: 0, commission: { purchase: { type: 'percentage' as const, rate: 30 } }, payouts: { automatic: { paypal: true } } }
type Fake = Awaited<ReturnType<typeof startFakePayPal>>
let fake: Fake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

/** An affiliate who earned 30.00, with a PayPal payout of it left processing and never sent (a process died). */
async function leftProcessing(program: AffiliateProgram) {
  const affiliate = await program.affiliates.create({ email: 'ann@example.com', paypalEmail: 'ann.paypal@example.com' })
  await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 })
  const sent = await program.providerPayouts.start({ affiliate: affiliate.id, amount: '30.00', provider: 'paypal' })
  return { affiliate, payoutId: sent.payoutId }
}

describe('payout sync', () => {
  it('runs on its schedule: a payout left processing is sent and settled without anyone calling sync()', async () => {
    fake = await startFakePayPal()
    const program = await createAffiliateProgram({ storage: memoryStorage(), settings: SETTINGS })
    const { affiliate, payoutId } = await leftProcessing(program)
    const lines: string[] = []
    const sync = payoutSync(program, { paypal: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: fake.url }, syncIntervalSeconds: 1 }, createLogger({ write: (line) => lines.push(line) }))
    try {
      const deadline = Date.now() + 10_000
      while ((await program.providerPayouts.get(payoutId))!.state === 'processing' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'paid', itemStatus: 'SUCCESS' })
      expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '0.00', credit: '0.00' })
      expect(fake.batches.size).toBe(1)
      expect(lines.join('\n')).toContain('payout sync: PayPal every 1 s')
      expect(lines.join('\n')).toContain('payout sync: 1 paid, 0 failed, 0 still processing')
    } finally {
      await sync.stop()
    }
  })

  it('config: payoutProviders is checked like every key', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ payoutProviders: { paypal: { clientId: 'x', clientSecret: 'y' }, syncIntervalSeconds: 0 } }))
    expect(() => loadConfig(join(dir, 'bad.json'))).toThrow(/payoutProviders\.syncIntervalSeconds.*must be at least 1/)
    writeFileSync(join(dir, 'unknown.json'), JSON.stringify({ payoutProviders: { wise: {} } }))
    expect(() => loadConfig(join(dir, 'unknown.json'))).toThrow(/payoutProviders/)
  })
})

describe.skipIf(!DATABASE_URL)('affiliate-kit serve with payoutProviders, on PostgreSQL', () => {
  it('resumes a payout left processing at start and settles it from PayPal\'s signed webhook; a forged one is 400', async () => {
    fake = await startFakePayPal({ statusFor: () => 'PENDING' })
    const database = await freshDatabase()
    const program = await createAffiliateProgram({ storage: postgresStorage({ connectionString: database.url }), settings: SETTINGS })
    try {
      const { affiliate, payoutId } = await leftProcessing(program)
      const dir = tempDir()
      const payoutProviders = { paypal: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: fake.url, webhookId: WEBHOOK_ID }, syncIntervalSeconds: 3600 }
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...SETTINGS, payoutProviders }))
      const server = run(['serve', '--port', '0', '--database', database.url, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: 'rgk_payoutssync0123456789abcdef' } })
      try {
        const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
        expect(server.output()).toContain('payout sync: PayPal every 3600 s')
        // At start: the batch PayPal never got is sent, with the payout's sender_batch_id.
        await server.waitFor(/payout sync: 0 paid, 0 failed, 1 still processing/)
        expect(fake.batches.size).toBe(1)
        expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'processing', itemStatus: 'PENDING' })

        fake.setStatus('ann.paypal@example.com', 'SUCCESS')
        const webhooks = `${url!.replace(/\/api\/v1$/, '')}/api/v1/payouts/paypal/webhooks`
        const event = fake.itemEvent('ann.paypal@example.com')
        expect((await fake.deliver(webhooks, event, { headers: { 'paypal-transmission-sig': 'Zm9yZ2Vk' } })).status).toBe(400)
        expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'processing' })
        expect(await fake.deliver(webhooks, event)).toMatchObject({ status: 200, body: { status: 'applied', state: 'paid', item_status: 'SUCCESS' } })
        expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'paid', payout: { status: 'paid', conversionsSettled: 1 } })
        expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '0.00', credit: '0.00' })
      } finally {
        const code = await server.stop()
        expect(code, server.output()).toBe(0)
      }
    } finally {
      await program.close()
      await database.drop()
    }
  }, 60_000)
})
