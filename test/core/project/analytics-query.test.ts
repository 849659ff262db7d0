// program.analytics.query on the memory adapter (docs/analytics.md): its input checked field by
// field, the defaults, the project's time zone however it is written, groups ranked by clicks then
// revenue with a null group last, and the bound on the groups an answer lists.
import { beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { MAX_ANALYTICS_GROUPS, MAX_ANALYTICS_ROWS } from '../../../src/core/project/analytics.js'
import type { ClickRollupDelta } from '../../../src/core/ports/analytics.js'
import { createAffiliateProgram, NotFoundError, testClock, ValidationError, type AffiliateProgram, type StoragePort } from '../../../src/index.js'

const key = { affiliateId: 1, utmSource: null, utmMedium: null, utmCampaign: null, country: null, device: 'desktop' as const }

describe('program.analytics.query', () => {
  let program: AffiliateProgram
  let storage: StoragePort

  beforeAll(async () => {
    storage = memoryStorage()
    program = await createAffiliateProgram({ storage, clock: testClock('2026-03-04T10:00:00Z'), settings: { timeZone: 'Asia/Tokyo' } })
    await program.affiliates.create({ email: 'ann@example.com' })
    // 1,005 links of one click each on 2026-03-02, link 3 with two, link 4 with two and a bot visit, and clicks of no link.
    const deltas: ClickRollupDelta[] = Array.from({ length: 1005 }, (_, index) => ({ ...key, day: '2026-03-02', linkId: index + 1, clicks: index === 2 || index === 3 ? 2 : 1, visitors: 1, botClicks: index === 3 ? 1 : 0 }))
    deltas.push({ ...key, day: '2026-03-02', linkId: null, clicks: 2, visitors: 0, botClicks: 0 })
    await storage.analytics.addRollups(program.projectId, deltas)
  })

  it.each([
    [{ metrics: ['clicks', 'likes'] }, 'metrics'],
    [{ metrics: [] }, 'metrics'],
    [{ groupBy: 'colour' }, 'groupBy'],
    [{ interval: 'year' }, 'interval'],
    [{ from: '2026-02-30' }, 'from'],
    [{ to: '03/04/2026' }, 'to'],
    [{ from: '2026-03-04', to: '2026-03-04' }, 'to'],
    [{ from: '2016-01-01', to: '2026-03-04' }, 'from'],
    [{ from: '0999-12-01', to: '0999-12-31' }, 'from'],
    [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
    [{ timeZone: '+01:00' }, 'timeZone'],
    [{ affiliate: 'not-an-email' }, 'affiliate'],
    [{ affiliate: 0 }, 'affiliate'],
    [{ link: 1.5 }, 'link'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %j naming %s', async (input, field) => {
    const error = await program.analytics.query(input as never).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ field })
  })

  it('an unknown affiliate is not found', async () => {
    await expect(program.analytics.query({ affiliate: 'nobody@example.com' })).rejects.toBeInstanceOf(NotFoundError)
    await expect(program.analytics.query({ affiliate: 999 })).rejects.toBeInstanceOf(NotFoundError)
  })

  it('defaults: the 30 days up to today in the time zone asked for, every metric, no bucket, no group', async () => {
    const answer = await program.analytics.query()
    expect(answer).toMatchObject({ from: '2026-02-03', to: '2026-03-05', timeZone: 'Asia/Tokyo', interval: null, groupBy: null, currency: 'USD', omittedGroups: 0 })
    expect(answer.metrics).toHaveLength(7)
    expect(answer.rows).toEqual([{ ...answer.totals }])
    expect(answer.totals).toMatchObject({ clicks: 1009, botClicks: 1 })
    // Pago Pago's today is still 3 March.
    expect(await program.analytics.query({ timeZone: 'Pacific/Pago_Pago' })).toMatchObject({ from: '2026-02-02', to: '2026-03-04' })
  })

  it('recognises the project time zone however it is written: the rollups answer, bot clicks and all', async () => {
    expect((await program.analytics.query({ timeZone: 'asia/tokyo' })).totals.botClicks).toBe(1)
    expect((await program.analytics.query({ timeZone: 'Asia/Seoul' })).totals.botClicks).toBe(0)
  })

  it('ranks groups by clicks, then revenue, then value (a null group last), and lists at most MAX_ANALYTICS_GROUPS', async () => {
    const answer = await program.analytics.query({ groupBy: 'link', metrics: ['clicks'] })
    expect(answer.rows).toHaveLength(MAX_ANALYTICS_GROUPS)
    expect(answer.omittedGroups).toBe(1006 - MAX_ANALYTICS_GROUPS)
    expect(answer.rows.slice(0, 4).map((row) => [row.group, row.clicks])).toEqual([
      ['3', 2],
      ['4', 2],
      [null, 2],
      ['1', 1],
    ])
    expect(answer.totals.clicks).toBe(1009)
  })

  it('with an interval, lists every bucket of fewer groups, at most MAX_ANALYTICS_ROWS rows', async () => {
    const answer = await program.analytics.query({ groupBy: 'link', interval: 'day', from: '2017-01-01', to: '2026-12-31' })
    const days = 3651
    expect(answer.rows).toHaveLength(Math.floor(MAX_ANALYTICS_ROWS / days) * days)
    expect(answer.omittedGroups).toBe(1006 - Math.floor(MAX_ANALYTICS_ROWS / days))
    expect(answer.rows[0]).toMatchObject({ start: '2017-01-01', group: '3', clicks: 0 })
    expect(answer.rows.find((row) => row.group === '3' && row.start === '2026-03-02')).toMatchObject({ clicks: 2 })
  })
})
