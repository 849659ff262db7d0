// The overview's activity chart: the last 30 days by default, 90 on request, drawn from the
// per-day counters, with its totals written out for readers of the page without the picture,
// a count axis, date labels and every day's figures readable without hovering.
import { describe, expect, it } from 'vitest'
import { Agent, portalFixture } from '../support/portal/helpers.js'

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

    // The count axis tops at a round number above the busiest day, the dates label the time axis
    // from the first day to the last, and the totals and each day's figures are written out.
    expect(recent).toMatch(/<span data-axis="top">2<\/span><span>1<\/span><span>0<\/span>/)
    const dates = [...recent.matchAll(/<span data-axis="date">([^<]+)<\/span>/g)].map((match) => match[1])
    expect(dates).toEqual(['12 Feb', '19 Feb', '27 Feb', '6 Mar', '13 Mar'])
    expect(recent).toMatch(/data-chart-total="purchases">2</)
    const days = [...recent.matchAll(/<tr><th scope="row"><time datetime="([0-9-]+)">[^<]*<\/time><\/th><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td><\/tr>/g)]
    expect(days).toHaveLength(30)
    expect(days[0]!.slice(1)).toEqual(['2026-03-13', '0', '0', '2'])
    expect(days.slice(1).every((day) => day[4] === '0')).toBe(true)
    const longerDates = [...longer.matchAll(/<span data-axis="date">([^<]+)<\/span>/g)].map((match) => match[1])
    expect(longerDates).toEqual(['14 Dec', '5 Jan', '28 Jan', '19 Feb', '13 Mar'])
    expect([...longer.matchAll(/<tr><th scope="row"><time/g)]).toHaveLength(90)

    // Anything else is the default range, never an error.
    expect((await agent.get('/portal/?days=7%3Cscript%3E')).status).toBe(200)
  })
})
