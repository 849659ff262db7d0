// Commission rules over REST, in both shapes and over real node:http: an affiliate's own rules
// set by PUT /affiliates/{email}, the rule each conversion records, and POST /conversions/preview
// answering what POST /conversions then creates, writing nothing.
import { describe, expect, it } from 'vitest'
import { startsVia } from '../support/http/helpers.js'
import { nodeHttp } from '../support/http/transports.js'

const SETTINGS = {
  commission: {
    purchase: { type: 'percentage' as const, rate: 30 },
    recurring: { stages: [{ payments: 3, rate: 40 }, { rate: 20 }], maxPayments: 12 },
    products: { prod_pro: { purchase: { type: 'percentage' as const, rate: 15 } }, prod_setup: { excluded: true as const } },
  },
}

describe('commission rules over REST (node:http)', () => {
  const { start } = startsVia(nodeHttp)

  it('primary: PUT /affiliates/{email} sets and removes the affiliate\'s own rules; conversions say which rule earned them', async () => {
    const s = await start({ settings: SETTINGS })
    expect((await s.call('POST', '/affiliates', { email: 'max@example.com', referral_code: 'MAX' })).status).toBe(201)
    const fifty = { purchase: { type: 'percentage', rate: 50 } }
    const put = await s.call('PUT', '/affiliates/max@example.com', { commission: fifty })
    expect(put.status).toBe(200)
    expect(put.body.data.commission).toEqual(fifty)
    expect((await s.call('GET', '/affiliates/max@example.com')).body.data.commission).toEqual(fifty)

    const pro = await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 100, product_id: 'prod_pro' })
    expect(pro.body.data).toMatchObject({ value: 50, product_id: 'prod_pro', commission_rule: { source: 'affiliate', basis: 'purchase', type: 'percentage', rate: '50', amount: null } })
    const setup = await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 50, product_id: 'prod_setup' })
    expect(setup.body.data).toMatchObject({ value: 0, commission_rule: { source: 'product', basis: 'excluded' } })
    const explicit = await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 50, value: 7 })
    expect(explicit.body.data.commission_rule).toEqual({ source: 'explicit', basis: 'explicit', type: 'fixed', rate: null, amount: '7.00' })

    expect((await s.call('PUT', '/affiliates/max@example.com', { commission: null })).body.data.commission).toBeNull()
    const after = await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 100, product_id: 'prod_pro' })
    expect(after.body.data).toMatchObject({ value: 15, commission_rule: { source: 'product', rate: '15' } })
    // The conversion earned at 50 % keeps its value and its rule.
    expect((await s.call('GET', `/conversions/${pro.body.data.id}`)).body.data).toMatchObject({ value: 50, commission_rule: { source: 'affiliate' } })
  })

  it('primary: bad rules are 400 naming the field, and change nothing', async () => {
    const s = await start({ settings: SETTINGS })
    await s.call('POST', '/affiliates', { email: 'ann@example.com' })
    const bad = await s.call('PUT', '/affiliates/ann@example.com', { commission: { purchase: { type: 'percentage', rate: 30 }, recurring: { stages: [] } } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('commission.recurring.stages')
    const digits = await s.call('PUT', '/affiliates/ann@example.com', { commission: { purchase: { type: 'fixed', amount: '1.001' } } })
    expect(digits.status).toBe(400)
    expect((await s.call('GET', '/affiliates/ann@example.com')).body.data.commission).toBeNull()
  })

  it('alternative: PUT /affiliates/{email} takes commission; preview and create agree', async () => {
    const s = await start({ settings: SETTINGS, handler: { shape: 'alternative' } })
    await s.call('POST', '/affiliates', { email: 'max@example.com', name: 'Max', referralCode: 'MAX' })
    const put = await s.call('PUT', '/affiliates/max@example.com', { commission: { purchase: { type: 'fixed', amount: '12.00' } } })
    expect(put.status).toBe(200)
    expect(put.body.data.affiliate.commission).toEqual({ purchase: { type: 'fixed', amount: '12.00' } })
    const body = { customer_email: 'buyer@example.com', amount: 99, referral_code: 'MAX' }
    const preview = await s.call('POST', '/conversions/preview', body)
    expect(preview.status).toBe(200)
    expect(preview.body.data.preview).toMatchObject({ affiliate_id: 'aff_1', commission_amount: 12, amount: 99, commission_rule: { source: 'affiliate', type: 'fixed', amount: '12.00' } })
    expect((await s.call('GET', '/conversions')).body.data.total).toBe(0)
    const created = await s.call('POST', '/conversions', body)
    expect(created.body.data.conversion).toMatchObject({ commission_amount: 12, commission_rule: preview.body.data.preview.commission_rule })
  })

  it('primary: preview answers what create then creates, with a read-only key, and writes nothing (an Idempotency-Key neither)', async () => {
    const s = await start({ settings: { ...SETTINGS, holdPeriodDays: 30 } })
    await s.call('POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
    const reader = await s.keyWith(['conversions:read'])
    const body = { type: 'purchase', referral_code: 'ANN', email: 'cus@example.com', base_value: 100, product_id: 'prod_pro', reference: 'in_1' }
    const before = JSON.stringify([(await s.call('GET', '/conversions')).body, (await s.call('GET', '/referrals')).body, (await s.call('GET', '/affiliates/ann@example.com')).body])
    const preview = await s.call('POST', '/conversions/preview', body, { key: reader, headers: { 'idempotency-key': 'preview-1' } })
    expect(preview.status).toBe(200)
    expect(preview.body.data).toEqual({
      affiliate_id: 1,
      matched_by: 'referral_code',
      product_id: 'prod_pro',
      commission_rule: { source: 'product', basis: 'purchase', type: 'percentage', rate: '15', amount: null },
      value: 15,
      currency: 'USD',
      base_value: 100,
      base_value_currency: 'USD',
      exchange_rate: '1',
      status: 'pending',
      review_reason: null,
      hold_until: '2026-03-31T00:00:00.000Z',
      sub_program: null,
      tier2: null,
    })
    const after = JSON.stringify([(await s.call('GET', '/conversions')).body, (await s.call('GET', '/referrals')).body, (await s.call('GET', '/affiliates/ann@example.com')).body])
    expect(after).toBe(before)
    // The same Idempotency-Key on a create is not taken by the preview.
    const created = await s.call('POST', '/conversions', body, { headers: { 'idempotency-key': 'preview-1' } })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ value: preview.body.data.value, status: 'pending', product_id: 'prod_pro', commission_rule: preview.body.data.commission_rule })
    // A read-only key cannot create; an unknown referral code is 404 for the preview too.
    expect((await s.call('POST', '/conversions', body, { key: reader })).status).toBe(403)
    expect((await s.call('POST', '/conversions/preview', { ...body, referral_code: 'NOBODY' }, { key: reader })).status).toBe(404)
    // The next payment of the customer: renewal 1 at 40 %, previewed and created alike.
    const renewal = { ...body, reference: 'in_2' }
    const next = (await s.call('POST', '/conversions/preview', renewal, { key: reader })).body.data
    expect(next).toMatchObject({ value: 40, commission_rule: { source: 'project', basis: 'recurring', rate: '40' } })
    expect((await s.call('POST', '/conversions', renewal)).body.data).toMatchObject({ value: 40, commission_rule: next.commission_rule })
  })
})
