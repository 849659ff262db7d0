// The portal's Analytics page (docs/portal.md): the signed-in affiliate's own figures only, by
// link, campaign or source, equal to program.analytics.query's answer for that affiliate (clicks
// counted through program.tracking.recordClicks, sales through program.conversions.create),
// whatever the query string names; a filter the query refuses is a 400 page naming the field, in
// the page's language.
import { beforeAll, describe, expect, it } from 'vitest'
import { answerBuckets, answerLines, answerTotals, pageTotals, tableRows } from '../support/analytics/page-figures.js'
import { clicksAndSales } from '../support/analytics/visits.js'
import { Agent, portalFixture, type PortalFixture } from '../support/portal/helpers.js'

const NO_LINK = 'No link: the referral code, or no click'

describe('portal analytics page', () => {
  let fixture: PortalFixture
  let agent: Agent
  let ann: { id: number }
  let bob: { id: number }
  let links: Awaited<ReturnType<typeof clicksAndSales>>['links']

  beforeAll(async () => {
    fixture = await portalFixture()
    ;({ ann, bob, links } = await clicksAndSales(fixture.program, fixture.storage, fixture.clock))
    agent = new Agent(fixture.portal.fetch)
    await agent.signIn((await fixture.portal.createSignInLink('ann@example.com')).url)
  })

  const page = async (query: string, language?: string) => {
    const response = await agent.request(`/portal/analytics${query}`, language ? { headers: { 'accept-language': language } } : {})
    return { status: response.status, text: await response.text() }
  }

  it("shows the affiliate's own figures by link over the last 30 days, as the query answers them", async () => {
    const { status, text } = await page('')
    expect(status).toBe(200)
    expect(text).toContain('<a href="/portal/analytics" aria-current="page">Analytics</a>')
    const series = await fixture.program.analytics.query({ affiliate: ann.id, interval: 'day' })
    const byLink = await fixture.program.analytics.query({ affiliate: ann.id, groupBy: 'link' })
    expect(pageTotals(text)).toEqual(answerTotals(series))
    expect(tableRows(text, 'data-chart-table')).toEqual(answerBuckets(series))
    expect(tableRows(text, 'data-analytics-table')).toEqual(answerLines(byLink, { [links.youtube.id]: 'ann-youtube', [links.news.id]: 'ann-news', null: NO_LINK }))
    // Written out by hand: Ann's 7 clicks and three sales (100.00, 49.99, 10.00) at 30 %.
    expect(pageTotals(text)).toMatchObject({ clicks: '7', conversions: '3', revenue: '159.99 USD', commission: '48.00 USD' })
    expect(tableRows(text, 'data-analytics-table')).toEqual([
      ['ann-youtube', '4', '4', '1', '1', '25%', '100.00 USD', '30.00 USD'],
      ['ann-news', '2', '2', '1', '1', '50%', '49.99 USD', '15.00 USD'],
      [NO_LINK, '1', '1', '1', '1', '100%', '10.00 USD', '3.00 USD'],
    ])
  })

  it('groups by campaign or source, over the period and buckets asked for', async () => {
    const campaigns = await page('?group_by=utm_campaign&from=2026-03-01&to=2026-03-09&interval=week')
    expect(campaigns.status).toBe(200)
    expect(tableRows(campaigns.text, 'data-analytics-table')).toEqual(
      answerLines(await fixture.program.analytics.query({ affiliate: ann.id, groupBy: 'utm_campaign', from: '2026-03-01', to: '2026-03-10' }), { null: 'None' }),
    )
    expect(tableRows(campaigns.text, 'data-chart-table')).toEqual(answerBuckets(await fixture.program.analytics.query({ affiliate: ann.id, interval: 'week', from: '2026-03-01', to: '2026-03-10' })))
    const sources = await page('?group_by=utm_source')
    expect(tableRows(sources.text, 'data-analytics-table').map((row) => row.slice(0, 2))).toEqual([
      ['youtube', '4'],
      ['newsletter', '2'],
      ['None', '1'],
    ])
  })

  it("never shows another affiliate's figures, whatever the query string names", async () => {
    const own = await page('?group_by=link')
    const bobLink = links.bob.id
    for (const forged of [`?affiliate=bob%40example.com`, `?affiliate=${bob.id}`, `?link=${bobLink}`, `?affiliate=${bob.id}&link=${bobLink}&timezone=Asia%2FTokyo`, `?group_by=link&affiliate=${bob.id}&affiliate=bob%40example.com`]) {
      const answer = await page(forged)
      expect([forged, answer.status]).toEqual([forged, 200])
      expect(pageTotals(answer.text)).toEqual(pageTotals(own.text))
      expect(tableRows(answer.text, 'data-analytics-table')).toEqual(tableRows(own.text, 'data-analytics-table'))
      expect(answer.text).not.toContain('bob-promo')
      expect(answer.text).not.toContain('200.00 USD')
    }
    // A sale credited to Ann through a click on Bob's link counts for Ann, under that link's id, never its key.
    const local = await portalFixture()
    const seeded = await clicksAndSales(local.program, local.storage, local.clock)
    const bobVisit = seeded.clicks.visit({ affiliateId: seeded.bob.id, linkId: seeded.links.bob.id, at: new Date('2026-03-09T08:00:00Z'), visitor: 'crossover0000000' })
    await local.program.tracking.recordClicks([bobVisit])
    await local.program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'crossover@example.com', baseValue: 20, reference: 'cross-1', click: seeded.clicks.signedReferral('ANN', bobVisit) })
    const annAgent = new Agent(local.portal.fetch)
    await annAgent.signIn((await local.portal.createSignInLink('ann@example.com')).url)
    const crossed = await (await annAgent.get('/portal/analytics')).text()
    expect(tableRows(crossed, 'data-analytics-table').find((row) => row[0] === `#${seeded.links.bob.id}`)).toEqual([`#${seeded.links.bob.id}`, '0', '0', '1', '1', '–', '20.00 USD', '6.00 USD'])
    expect(crossed).not.toContain('bob-promo')

    // Grouping by affiliate is not offered: it is refused, not answered with the program's affiliates.
    const byAffiliate = await page('?group_by=affiliate')
    expect(byAffiliate.status).toBe(400)
    expect(byAffiliate.text).not.toContain('bob@example.com')
  })

  it.each([
    ['from=2026-02-30', 'From'],
    ['to=2026-13-01', 'To'],
    ['from=2026-03-09&to=2026-03-01', 'To'],
    ['from=2000-01-01&to=2026-03-09', 'From'],
    ['interval=year', 'Bars per'],
    ['group_by=affiliate', 'Group by'],
    ['group_by=%3Cscript%3E', 'Group by'],
  ])('refuses %s with a 400 naming %s, and the form again', async (query, field) => {
    const refused = await page(`?${query}`)
    expect(refused.status).toBe(400)
    expect(refused.text).toContain(`<p class="error" role="alert">These figures cannot be shown: ${field} is not valid. Choose other values below.</p>`)
    expect(refused.text).toContain('<form class="card filters" method="get" action="/portal/analytics"')
    expect(refused.text).not.toContain('data-analytics-table')
    expect(refused.text).not.toContain('<script>')
  })

  it("speaks the affiliate's language: German labels, rates and refusals", async () => {
    const german = await page('', 'de-DE,de;q=0.9')
    expect(german.status).toBe(200)
    expect(german.text).toContain('<div lang="de"><h1>Analysen</h1>')
    expect(german.text).toContain('<th scope="col" class="num">Conversion-Rate</th>')
    expect(tableRows(german.text, 'data-analytics-table')[0]).toEqual(['ann-youtube', '4', '4', '1', '1', '25\u00a0%', '100.00 USD', '30.00 USD'])
    expect(german.text).toContain('<title id="chart-clicks-title">Klicks</title>')
    const refused = await page('?interval=jahr', 'de')
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Diese Zahlen können nicht angezeigt werden: Balken pro ist ungültig.')
  })
})
