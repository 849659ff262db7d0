// The standalone server's incentives (docs/incentives.md): the config's `incentives` and
// `providers.stripe.secretKey`, as a process. A promotion code is created at a local Stripe
// server speaking its documented API, the secret key never reaching the output; a bad incentive
// stops the start, naming the key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { api, run } from '../support/cli/process.js'
import { startStripePromotionCodesApi, STRIPE_SECRET_KEY } from '../support/providers/stripe-promotion-codes-api.js'

const KEY = `rgk_${'Inc0Test1Key2'.repeat(3)}xyz`
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-incentives-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('affiliate-kit serve: incentives', () => {
  it("creates an affiliate's promotion code at Stripe with the config's secret key, never printing it", async () => {
    const stripe = await startStripePromotionCodesApi(['REFERRED20'])
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        incentives: { customer: { percentOff: 20, duration: 'repeating', durationInMonths: 3, stripe: { couponId: 'REFERRED20' } } },
        providers: { stripe: { webhookSecret: 'whsec_incentivesTest', secretKey: STRIPE_SECRET_KEY, apiBase: stripe.url } },
      }),
    )
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json', '--log-level', 'debug'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
      const created = await api(url!, KEY, 'POST', '/affiliates/ann%40example.com/promotion-codes', { code: 'ANN20' })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body).toMatchObject({ data: { coupon_code: 'ANN20', processor_coupon_id: stripe.codes[0]!.id } })
      expect(stripe.codes.map((code) => [code.code, code.promotion.coupon, code.metadata.referral_code])).toEqual([['ANN20', 'REFERRED20', 'ANN']])
      const taken = await api(url!, KEY, 'POST', '/affiliates/ann%40example.com/promotion-codes', { code: 'ann20' })
      expect(taken.status).toBe(409)
      expect(stripe.requests).toHaveLength(1)
    } finally {
      expect(await server.stop()).toBe(0)
      await stripe.close()
    }
    expect(server.output()).not.toContain(STRIPE_SECRET_KEY)
  }, 60_000)

  it.each([
    [{ incentives: { customer: { duration: 'once' } } }, /"incentives.customer" needs one of percentOff or amountOff/],
    [{ incentives: { customer: { amountOff: '1.005' } } }, /incentives.customer.amountOff/],
    [{ subPrograms: { agencies: { commission: { purchase: { type: 'percentage', rate: 30 } }, incentives: { customer: { percentOff: 20, coupon: 'X' } } } } }, /unknown field "subPrograms.agencies.incentives.customer.coupon"/],
    [{ providers: { stripe: { webhookSecret: 'whsec_x', secretKey: '' } } }, /"providers.stripe.secretKey" must not be empty/],
  ])('refuses to start with a bad config %j, naming the key', async (config, message) => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(config))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'bad.json'], { cwd: dir })
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(message)
    expect(server.output()).not.toContain('listening')
  }, 30_000)
})
