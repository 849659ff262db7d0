// Error messages and `details.field` name a field as the client sent it: request fields by their
// issue path as is, core fields by their wire name in the shape (snake_case, or a route's own
// names such as the alternative `amount`), never by rewriting words found in the message text.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { caller, setup } from '../support/http/helpers.js'

describe('error field names', () => {
  it('primary: an unknown field is named exactly as sent, even when its snake_case twin is a known field', async () => {
    const s = await setup()
    const reply = await s.call('POST', '/affiliates', { email: 'ann@example.com', referralCode: 'ANN' })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('unknown field "referralCode"')
    const query = await s.call('GET', '/conversions?affiliateId=1')
    expect(query.body.error).toBe('unknown field "affiliateId"')
  })

  it('primary: core errors name every field they mention by its wire name', async () => {
    const s = await setup()
    const payout = await s.call('POST', '/payouts', { amount: 1 })
    expect(payout.body.error).toBe('affiliate_id or affiliate_email is required')
    const conversion = await s.call('POST', '/conversions', { type: 'purchase', affiliate_id: 1, base_value: 1 })
    expect(conversion.status).toBe(404)
    const missing = await s.call('POST', '/conversions', { type: 'purchase' })
    expect(missing.body.error).toBe('base_value is required for purchases')
  })

  it('alternative: camelCase request fields keep their names in the message and in details.field', async () => {
    const s = await setup()
    const alternative = caller(createHandler(s.program, { shape: 'alternative', rateLimit: false, webhooks: s.dispatcher }), s.key)
    await alternative('POST', '/affiliates', { email: 'ann@example.com', name: 'Ann' })
    const custom = await alternative('PUT', '/affiliates/ann@example.com', { customFields: 'x' })
    expect(custom.status).toBe(400)
    expect(custom.body.error).toMatchObject({ message: 'customFields: must be an object', details: { field: 'customFields', issue: 'must be an object' } })
    const hook = await s.program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted'] })
    const test = await alternative('POST', `/api/project/${s.program.projectId}/webhooks/${hook.id}/test`, { eventType: 'referral_exploded' })
    expect(test.status).toBe(400)
    expect(test.body.error.details.field).toBe('eventType')
    expect(test.body.error.details.issue).toMatch(/^must be one of /)
  })

  it("alternative: core errors use the route's own names", async () => {
    const s = await setup()
    const alternative = caller(createHandler(s.program, { shape: 'alternative', rateLimit: false, webhooks: s.dispatcher }), s.key)
    await alternative('POST', '/affiliates', { email: 'ann@example.com', name: 'Ann', referralCode: 'ANN' })
    const sale = await alternative('POST', '/conversions', { customer_email: 'bob@example.com', amount: 10.001, referral_code: 'ANN' })
    expect(sale.status).toBe(400)
    expect(sale.body.error).toMatchObject({ message: 'amount has more than 2 decimal places', details: { field: 'amount' } })
  })
})
