// Performance tiers over REST, both shapes, real node:http: the affiliate's tier and its progress
// to the next, before and after a purchase reaches the threshold (docs/commissions.md).
import { describe, expect, it } from 'vitest'
import { startsVia } from '../support/http/helpers.js'
import { nodeHttp } from '../support/http/transports.js'

const SETTINGS = {
  commission: {
    purchase: { type: 'percentage' as const, rate: 30 },
    tiers: [{ name: 'Gold', minRevenue: '100.00', purchase: { type: 'percentage' as const, rate: 40 } }],
  },
}

describe('performance tiers over REST (node:http)', () => {
  const { start } = startsVia(nodeHttp)

  it('primary: tier and tier_progress, then Gold once a purchase reaches 100.00; the next purchase earns 40 %', async () => {
    const s = await start({ settings: SETTINGS })
    await s.call('POST', '/affiliates', { email: 'max@example.com', referral_code: 'MAX' })
    const before = (await s.call('GET', '/affiliates/max@example.com')).body.data
    expect(before.tier).toBeNull()
    expect(before.tier_progress).toMatchObject({ period: 'month', revenue: '0.00', customers: 0, next: { name: 'Gold', min_revenue: '100.00', min_customers: null } })
    const first = await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 150, email: 'a@example.com' })
    expect(first.body.data).toMatchObject({ value: 45, commission_rule: { source: 'project' } })
    const after = (await s.call('GET', '/affiliates/max@example.com')).body.data
    expect(after).toMatchObject({ tier: 'Gold', tier_progress: { revenue: '150.00', customers: 1, next: null } })
    const second = await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 10, email: 'b@example.com' })
    expect(second.body.data).toMatchObject({ value: 4, commission_rule: { source: 'tier', rate: '40' } })
    const listed = (await s.call('GET', '/affiliates')).body.data
    expect(listed.find((row: { user_email: string }) => row.user_email === 'max@example.com')).toMatchObject({ tier: 'Gold' })
  })

  it('alternative: tier and tierProgress on the affiliate', async () => {
    const s = await start({ settings: SETTINGS, handler: { shape: 'alternative' } })
    await s.call('POST', '/affiliates', { email: 'max@example.com', name: 'Max', referralCode: 'MAX' })
    await s.call('POST', '/conversions', { customer_email: 'buyer@example.com', amount: 120, referral_code: 'MAX' })
    const put = await s.call('PUT', '/affiliates/max@example.com', { name: 'Max Gold' })
    expect(put.body.data.affiliate).toMatchObject({ tier: 'Gold', tierProgress: { period: 'month', revenue: '120.00', customers: 1, next: null } })
  })

  it('primary: a bonus is a conversion of type bonus, listed with ?type=bonus', async () => {
    const s = await start({ settings: { commission: { ...SETTINGS.commission, bonuses: [{ name: 'First customer', customers: 1, amount: '5.00', period: 'month' }] } } })
    await s.call('POST', '/affiliates', { email: 'max@example.com', referral_code: 'MAX' })
    await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 10, email: 'a@example.com' })
    await s.call('POST', '/conversions', { type: 'purchase', referral_code: 'MAX', base_value: 10, email: 'b@example.com' })
    const bonuses = await s.call('GET', '/conversions?type=bonus')
    expect(bonuses.status).toBe(200)
    expect(bonuses.body.data).toHaveLength(1)
    expect(bonuses.body.data[0]).toMatchObject({ type: 'bonus', value: 5, commission_rule: { source: 'project', basis: 'bonus', type: 'fixed', amount: '5.00' } })
    expect((await s.call('GET', '/affiliates/max@example.com')).body.data.total_earnings).toBe('11.00')
  })
})
