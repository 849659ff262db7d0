// The console's Analytics page (docs/admin.md "Analytics"), over plain fetch on a real program in
// memory: its totals, chart and table are program.analytics.query's answer for the filters, clicks
// counted through program.tracking.recordClicks and sales through program.conversions.create; the
// CSV export is the table, every cell guarded; a filter the query refuses is a 4xx page naming it,
// never a 500, and exports nothing.
import { parse } from 'csv-parse/sync'
import { beforeAll, describe, expect, it } from 'vitest'
import { adminFixture, signedInAgent, type Agent, type AdminFixture } from '../support/admin/helpers.js'
import { answerBuckets, answerLines, answerTotals, pageTotals, tableRows } from '../support/analytics/page-figures.js'
import { clickMaker, clicksAndSales } from '../support/analytics/visits.js'

const NO_LINK = 'No link: the referral code, or no click'

describe('console analytics page', () => {
  let fixture: AdminFixture
  let agent: Agent
  let ann: { id: number }
  let links: Awaited<ReturnType<typeof clicksAndSales>>['links']

  beforeAll(async () => {
    fixture = await adminFixture()
    ;({ ann, links } = await clicksAndSales(fixture.program, fixture.storage, fixture.clock))
    agent = await signedInAgent(fixture)
  })

  const page = async (query: string) => {
    const response = await agent.get(`/admin/analytics${query}`)
    return { status: response.status, text: await response.text() }
  }

  it('defaults to the last 30 days per day, ungrouped: totals, chart and table are the query answer', async () => {
    const { status, text } = await page('')
    expect(status).toBe(200)
    const series = await fixture.program.analytics.query({ interval: 'day' })
    expect(series).toMatchObject({ from: '2026-02-09', to: '2026-03-11' })
    expect(pageTotals(text)).toEqual(answerTotals(series))
    // Written out by hand: 7 clicks of Ann (link 7 counts a1 twice, on two days: a visitor new on each), 4 of Bob;
    // each sale's buyer a new referred user; one bot visit apart.
    expect(pageTotals(text)).toEqual({ clicks: '11', visitors: '11', signups: '4', conversions: '4', revenue: '359.99 USD', commission: '108.00 USD', bot_clicks: '1' })
    expect(tableRows(text, 'data-chart-table')).toEqual(answerBuckets(series))
    expect(tableRows(text, 'data-analytics-table')).toEqual(answerLines(series, {}))
    expect(tableRows(text, 'data-analytics-table')).toHaveLength(30)
    // The form shows the defaults the query took: its period (both days included) and time zone.
    expect(text).toContain('name="from" type="date" value="2026-02-09"')
    expect(text).toContain('name="to" type="date" value="2026-03-10"')
    expect(text).toContain('name="timezone" value="UTC"')
    expect(text).toMatch(/<svg [^>]*role="img" aria-labelledby="chart-clicks-title chart-clicks-desc"/)
    expect(text).toContain('<desc id="chart-clicks-desc">Clicks from 2026-02-09 to 2026-03-10: 11 in all; the highest bar is 4.</desc>')
    expect(text).toContain('<a href="/admin/analytics" aria-current="page">Analytics</a>')
  })

  it('groups by link over the period asked for, each link with its own figures', async () => {
    const { status, text } = await page('?from=2026-03-01&to=2026-03-09&group_by=link&interval=week')
    expect(status).toBe(200)
    const groups = await fixture.program.analytics.query({ from: '2026-03-01', to: '2026-03-10', groupBy: 'link' })
    const lines = tableRows(text, 'data-analytics-table')
    expect(lines).toEqual(answerLines(groups, { [links.youtube.id]: 'ann-youtube', [links.news.id]: 'ann-news', [links.bob.id]: 'bob-promo', null: NO_LINK }))
    // Each link by its key, by clicks, then revenue.
    expect(lines).toEqual([
      ['bob-promo', '4', '4', '1', '1', '25%', '200.00 USD', '60.00 USD'],
      ['ann-youtube', '4', '4', '1', '1', '25%', '100.00 USD', '30.00 USD'],
      ['ann-news', '2', '2', '1', '1', '50%', '49.99 USD', '15.00 USD'],
      [NO_LINK, '1', '1', '1', '1', '100%', '10.00 USD', '3.00 USD'],
    ])
    const weeks = await fixture.program.analytics.query({ from: '2026-03-01', to: '2026-03-10', interval: 'week' })
    expect(tableRows(text, 'data-chart-table')).toEqual(answerBuckets(weeks))
    expect(tableRows(text, 'data-chart-table').map((row) => row[0])).toEqual(['2026-02-23', '2026-03-02', '2026-03-09'])
    expect(pageTotals(text)).toEqual(answerTotals(weeks))
  })

  it("filters by affiliate (email or id), link and time zone, as the query does", async () => {
    const byEmail = await page('?group_by=utm_campaign&affiliate=ann%40example.com')
    const annCampaigns = await fixture.program.analytics.query({ groupBy: 'utm_campaign', affiliate: 'ann@example.com' })
    expect(tableRows(byEmail.text, 'data-analytics-table')).toEqual(answerLines(annCampaigns, { null: 'None' }))
    expect(tableRows(byEmail.text, 'data-analytics-table').map((row) => row[0])).toEqual(['spring', 'winter', 'None'])
    expect(tableRows((await page(`?group_by=utm_campaign&affiliate=${ann.id}`)).text, 'data-analytics-table')).toEqual(answerLines(annCampaigns, { null: 'None' }))

    const byAffiliate = await page('?group_by=affiliate')
    expect(tableRows(byAffiliate.text, 'data-analytics-table').map((row) => row.slice(0, 2))).toEqual([
      ['ann@example.com', '7'],
      ['bob@example.com', '4'],
    ])

    const oneLink = await page(`?link=${links.news.id}&from=2026-03-01&to=2026-03-09`)
    expect(pageTotals(oneLink.text)).toEqual(answerTotals(await fixture.program.analytics.query({ link: links.news.id, from: '2026-03-01', to: '2026-03-10', interval: 'day' })))
    expect(pageTotals(oneLink.text)).toMatchObject({ clicks: '2', conversions: '1', revenue: '49.99 USD' })

    // Another time zone reads the raw clicks: the same clicks, no bot clicks, days of Tokyo.
    const tokyo = await page('?timezone=Asia%2FTokyo&from=2026-03-02&to=2026-03-02')
    expect(pageTotals(tokyo.text)).toEqual(answerTotals(await fixture.program.analytics.query({ timeZone: 'Asia/Tokyo', from: '2026-03-02', to: '2026-03-03', interval: 'day' })))
    expect(pageTotals(tokyo.text)).toMatchObject({ clicks: '3', bot_clicks: '0' })
  })

  it('names a link deleted since by its id, its clicks and sales still counted', async () => {
    const local = await adminFixture()
    const seeded = await clicksAndSales(local.program, local.storage, local.clock)
    await local.program.links.delete(seeded.links.news.id)
    const signedIn = await signedInAgent(local)
    const text = await (await signedIn.get('/admin/analytics?group_by=link&from=2026-03-01&to=2026-03-09')).text()
    expect(tableRows(text, 'data-analytics-table')[2]).toEqual([`#${seeded.links.news.id}`, '2', '2', '1', '1', '50%', '49.99 USD', '15.00 USD'])
  })

  it('exports the table as CSV for the same filters, every cell guarded, and audits it', async () => {
    const query = '?from=2026-03-01&to=2026-03-09&group_by=link'
    const shown = tableRows((await page(query)).text, 'data-analytics-table')
    const csrf = await agent.csrfOf(`/admin/analytics${query}`)
    const fields = { csrf, from: '2026-03-01', to: '2026-03-09', interval: 'day', group_by: 'link', affiliate: '', link: '', timezone: 'UTC' }
    const response = await agent.post('/admin/analytics/export', fields)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-2026-03-10.csv"')
    const [header, ...rows] = parse(await response.text()) as string[][]
    expect(header).toEqual(['group', 'label', 'clicks', 'visitors', 'signups', 'conversions', 'conversion_rate', 'revenue', 'commission', 'currency'])
    expect(rows.map(([, label, clicks, visitors, signups, conversions, rate, revenue, commission, currency]) => [label, clicks, visitors, signups, conversions, rate || '–', `${revenue} ${currency}`, `${commission} ${currency}`])).toEqual(shown)
    expect(rows.map((row) => row[0])).toEqual([String(links.bob.id), String(links.youtube.id), String(links.news.id), ''])
    const [entry] = (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 1, offset: 0 })).items
    expect([entry!.action, entry!.detail]).toEqual(['analytics.export', '4 rows, from 2026-03-01, to 2026-03-09, interval day, group_by link, timezone UTC'])

    // Without a grouping the file lists the buckets, as the table does.
    const days = await agent.post('/admin/analytics/export', { ...fields, group_by: '' })
    const [dayHeader, ...dayRows] = parse(await days.text()) as string[][]
    expect(dayHeader![0]).toBe('start')
    expect(dayRows.map((row) => row[0])).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09'])
    expect(dayRows[1]!.slice(1, 3)).toEqual(['3', '3'])
    expect((await agent.post('/admin/analytics/export', { from: '2026-03-01' })).status).toBe(403)
  })

  it('guards campaign values a spreadsheet would run as a formula', async () => {
    const local = await adminFixture()
    const { ann: owner } = await clicksAndSales(local.program, local.storage, local.clock)
    const clicks = await clickMaker(local.program, local.storage)
    await local.program.tracking.recordClicks([
      clicks.visit({ affiliateId: owner.id, at: new Date('2026-03-09T08:00:00Z'), visitor: 'formula000000000', utmCampaign: '=HYPERLINK("https://evil.example")' }),
      clicks.visit({ affiliateId: owner.id, at: new Date('2026-03-09T08:00:00Z'), visitor: 'minus00000000000', utmCampaign: '-2+3' }),
    ])
    const signedIn = await signedInAgent(local)
    const csrf = await signedIn.csrfOf('/admin/analytics')
    const response = await signedIn.post('/admin/analytics/export', { csrf, group_by: 'utm_campaign', from: '2026-03-09', to: '2026-03-09' })
    const labels = (parse(await response.text()) as string[][]).slice(1).map((row) => [row[0], row[1]])
    expect(labels).toEqual([
      ["'-2+3", "'-2+3"],
      ['\'=HYPERLINK("https://evil.example")', '\'=HYPERLINK("https://evil.example")'],
    ])
    // On the page the value is text, escaped.
    expect((await (await signedIn.get('/admin/analytics?group_by=utm_campaign&from=2026-03-09&to=2026-03-09')).text())).toContain('=HYPERLINK(&quot;https://evil.example&quot;)')
  })

  it.each([
    ['from=2026-02-30', 400, 'From: must be a date written YYYY-MM-DD'],
    ['to=03%2F09%2F2026', 400, 'To: must be a date written YYYY-MM-DD'],
    ['from=2026-03-09&to=2026-03-01', 400, 'To: must be after From'],
    ['from=2010-01-01&to=2026-03-09', 400, 'From: the range may cover at most 3660 days'],
    ['interval=year', 400, 'Bars per: must be day, week or month'],
    ['group_by=colour', 400, 'Group by: must be one of link, affiliate, utm_source'],
    ['timezone=%2B01%3A00', 400, 'Time zone: must be an IANA time zone such as'],
    ['timezone=Mars%2FOlympus', 400, 'Time zone:'],
    ['link=abc', 400, 'Link id: must be a link id'],
    ['link=0', 400, 'Link id: must be a link id'],
    ['affiliate=not-an-email', 400, 'Affiliate: must be a valid email address'],
    ['affiliate=0', 400, 'Affiliate: must be a valid email address'],
    ['to=9999-12-31', 400, 'To: must be a date written YYYY-MM-DD'],
    ['link=12345678901234567890', 400, 'Link id: must be a link id'],
    ['affiliate=nobody%40example.com', 404, 'Affiliate: no affiliate has this email or id.'],
    ['affiliate=999', 404, 'Affiliate: no affiliate has this email or id.'],
  ])('refuses %s with the query\'s message (%i), the form as typed, and exports nothing', async (query, status, message) => {
    const refused = await page(`?${query}`)
    expect(refused.status).toBe(status)
    expect(refused.text).toContain('<p class="error" role="alert">')
    expect(refused.text).toContain(message.replace(/'/g, '&#39;'))
    expect(refused.text).not.toContain('data-analytics-table')
    const csrf = await agent.csrfOf('/admin/analytics')
    const before = (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 100, offset: 0 })).total
    const exported = await agent.post('/admin/analytics/export', { csrf, ...Object.fromEntries(new URLSearchParams(query)) })
    expect(exported.status).toBe(status)
    expect(exported.headers.get('content-type')).toMatch(/^text\/html/)
    expect((await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 100, offset: 0 })).total).toBe(before)
  })
})
