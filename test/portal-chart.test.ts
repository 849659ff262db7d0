// The overview's activity chart: the last 30 days by default, 90 on request, drawn from the
// per-day counters, with its totals written out for readers of the page without the picture.
import { describe, expect, it } from 'vitest'
import { Agent, portalFixture } from './portal/helpers.js'

describe('portal activity chart', () => {
  it('shows the last 30 days of clicks and purchases, and 90 days on request', async () => {
    const { program, portal, clock } = await portalFixture()
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 49, reference: 'old' })
    clock.advance({ days: 40 })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 10, reference: 'r1' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 20, reference: 'r2' })
    const agent = new Agent(portal.fetch)
    const { url } = await portal.createSignInLink('ann@example.com')
    await agent.signIn(url)

    const recent = await (await agent.get('/portal/')).text()
    expect(recent).toContain('<h2 id="activity-chart-title">Last 30 days</h2>')
    expect(recent).toMatch(/data-days="30"/)
    expect(recent).toMatch(/data-figure="activity">0 clicks, 0 signups and 2 purchases from /)

    const longer = await (await agent.get('/portal/?days=90')).text()
    expect(longer).toContain('Last 90 days')
    expect(longer).toMatch(/data-days="90"/)
    expect(longer).toMatch(/data-figure="activity">0 clicks, 0 signups and 3 purchases from /)

    // Anything else is the default range, never an error.
    expect((await agent.get('/portal/?days=7%3Cscript%3E')).status).toBe(200)
  })
})
