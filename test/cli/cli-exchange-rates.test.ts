// The standalone server's `exchangeRates` config: a Stripe payment in EUR for a USD program waits
// while no rate is configured; restarted with the rate, the server applies a replay of it (REST)
// and new EUR payments at once, and `providers replay --config` applies the rate from the same
// file. Commissions are exact: 30 % of 40.20 EUR at 1.0825 is 13.05495, 13.05 USD (rounding the
// converted 43.52 first would give 13.06).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { checkoutCompleted, legacyInvoicePaid } from '../support/providers/stripe-fixtures.js'

const tempDir = tempDirs('affiliate-kit-fx')
const KEY = `rgk_${'Fx0Rates1Key2'.repeat(3)}xyz`
const SECRET = 'whsec_fx_test'

function signed(event: unknown) {
  const body = JSON.stringify(event)
  return { body, headers: { 'Stripe-Signature': new Stripe('sk_test_not_used').webhooks.generateTestHeaderString({ payload: body, secret: SECRET }), 'Content-Type': 'application/json' } }
}

/** A customer referred by ANN checks out, then pays an invoice of `cents` euro cents. */
async function pays(url: string, name: string, cents: number): Promise<string> {
  const now = new Date().toISOString()
  const customer = { customer: `cus_${name}`, email: `${name.toLowerCase()}@example.com` }
  const endpoint = `${url}/providers/stripe/events`
  expect((await fetch(endpoint, { method: 'POST', ...signed(checkoutCompleted({ at: now, ...customer, referral: 'ANN' })) })).status).toBe(200)
  const invoice = legacyInvoicePaid({ at: now, id: `in_${name}`, ...customer, subtotal: cents, tax: 0, billingReason: 'manual', paymentIntent: `pi_${name}`, charge: `ch_${name}`, currency: 'eur' })
  const response = await fetch(endpoint, { method: 'POST', ...signed(invoice) })
  expect(response.status).toBe(200)
  return ((await response.json()) as { status: string }).status
}

describe('affiliate-kit serve with exchangeRates in the config', () => {
  it('a EUR payment waits without the rate; after a restart with it, REST and CLI replays apply it exactly, and new EUR payments apply at once', async () => {
    const dir = tempDir()
    const database = `pglite:${migratedDataDir(join(dir, 'data'))}`
    const config = join(dir, 'affiliate.config.json')
    const settings = { currency: 'USD', commission: { purchase: { type: 'percentage', rate: 30 } }, providers: { stripe: { webhookSecret: SECRET } } }
    const serve = async () => {
      const server = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      return { server, url: url! }
    }

    writeFileSync(config, JSON.stringify(settings))
    const first = await serve()
    const waiting: Record<string, number> = {}
    try {
      expect((await api(first.url, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
      expect(await pays(first.url, 'Eve', 4020)).toBe('waiting')
      expect(await pays(first.url, 'Fay', 4060)).toBe('waiting')
      const listed = await api(first.url, KEY, 'GET', '/provider-events?status=waiting')
      for (const event of listed.body!.data as Array<{ id: number; reference: string; waiting_for: string }>) {
        expect(event.waiting_for).toBe(`rate:EUR->USD:${event.reference}`)
        waiting[event.reference] = event.id
      }
      expect(Object.keys(waiting).sort()).toEqual(['in_Eve', 'in_Fay'])
    } finally {
      expect(await first.server.stop()).toBe(0)
    }

    writeFileSync(config, JSON.stringify({ ...settings, exchangeRates: { 'EUR->USD': '1.0825' } }))
    const second = await serve()
    try {
      expect(second.server.output()).toContain('exchange rates from the config: EUR->USD 1.0825')
      const replayed = await api(second.url, KEY, 'POST', `/provider-events/${waiting.in_Eve}/replay`)
      expect(replayed).toMatchObject({ status: 200, body: { data: { replayed: true, event: { status: 'applied', waiting_for: null, detail: expect.stringContaining('commission 13.05 USD') } } } })
      // 41.40 EUR is 44.81550 USD; 30 % is 13.44465: 13.44.
      expect(await pays(second.url, 'Gus', 4140)).toBe('applied')
      const conversions = await api(second.url, KEY, 'GET', '/conversions')
      const byReference = Object.fromEntries((conversions.body!.data as Array<{ reference: string; base_value: number; base_value_currency: string; value: number }>).map((c) => [c.reference, [c.base_value, c.base_value_currency, c.value]]))
      expect(byReference).toEqual({ in_Eve: [40.2, 'EUR', 13.05], in_Gus: [41.4, 'EUR', 13.44] })
    } finally {
      expect(await second.server.stop()).toBe(0)
    }

    // The CLI has the rate only from the config file.
    const without = run(['providers', 'replay', String(waiting.in_Fay), '--database', database], { cwd: dir })
    expect(await without.exited, without.output()).toBe(0)
    expect(without.output()).toMatch(/\tin_Fay\twaiting\t/)
    const withRates = run(['providers', 'replay', String(waiting.in_Fay), '--config', config, '--database', database], { cwd: dir })
    expect(await withRates.exited, withRates.output()).toBe(0)
    // 40.60 EUR is 43.94950 USD; 30 % is 13.184850: 13.18.
    expect(withRates.output()).toMatch(/\tin_Fay\tapplied\tin_Fay: created conversion \d+ \(purchase, commission 13\.18 USD\)/)

    const program = await createAffiliateProgram({ storage: pgliteStorage({ dataDir: join(dir, 'data') }) })
    try {
      expect((await program.affiliates.get('ann@example.com')).earnings.total).toBe('39.67')
      expect((await program.providerEvents.list({ status: 'waiting' })).total).toBe(0)
    } finally {
      await program.close()
    }
  }, 180_000)
})
