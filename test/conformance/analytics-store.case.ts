// The analytics store on every adapter (docs/analytics.md): a batch of clicks written once per
// (id, hour), also by two transactions at once; visitor marks; rollups; the same clicks read from
// the rollups and from the raw rows; outcomes grouped by the click each came through; projects
// kept apart; old months dropped.
import { describe, expect, it } from 'vitest'
import { markVisitor } from '../support/analytics/clicks.js'
import type { AnalyticsRead, ClickFigures, OutcomeFigures } from '../../src/core/ports/analytics.js'
import type { AffiliateProgram, StoragePort } from '../../src/index.js'
import { clickRow, writeBatch } from '../support/analytics/clicks.js'
import type { CaseContext } from './harness.js'

const TOKYO = 'Asia/Tokyo'
/** The same offset as Tokyo all year, another name: a read in it takes the raw rows. */
const SEOUL = 'Asia/Seoul'

/** A read of March 2026 in Tokyo (the project's zone), as the query makes it. */
function march(fields: Partial<AnalyticsRead> = {}): AnalyticsRead {
  return { from: new Date('2026-02-28T15:00:00Z'), to: new Date('2026-03-31T15:00:00Z'), timeZone: TOKYO, projectTimeZone: TOKYO, interval: null, groupBy: null, ...fields }
}

const sorted = <T extends { start: string | null; group: string | null }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => `${a.start}|${a.group}`.localeCompare(`${b.start}|${b.group}`))

/** Click figures without bot clicks (the raw rows have none), sorted. */
const clicksAndVisitors = (rows: ClickFigures[]) => sorted(rows.map(({ start, group, clicks, visitors }) => ({ start, group, clicks, visitors })))

async function tokyoProgram(context: CaseContext, settings: Record<string, unknown> = {}): Promise<{ program: AffiliateProgram; storage: StoragePort; projectId: string }> {
  const { program, storage, clock } = await context.program({ settings: { timeZone: TOKYO, ...settings } })
  clock.set('2026-03-10T03:00:00Z')
  return { program, storage, projectId: program.projectId }
}

export function analyticsStoreCases(context: CaseContext): void {
  describe('analytics store: clicks, visitors, rollups', () => {
    it('writes a click once per (id, hour): a repeat in the batch or in a later batch is skipped, the same id in another hour is written', async () => {
      const { storage, projectId } = await tokyoProgram(context)
      const at = new Date('2026-03-10T03:20:00Z')
      const first = clickRow(TOKYO, { affiliateId: 1, at, newVisitor: true })
      const second = clickRow(TOKYO, { affiliateId: 1, at, linkId: 7 })
      const written = await storage.transaction((tx) => tx.analytics.insertClicks(projectId, [first, second, { ...first, at: new Date('2026-03-10T03:40:00Z') }]))
      expect([...written].sort()).toEqual([first.id, second.id].sort())
      const later = new Date('2026-03-10T04:05:00Z')
      const again = await storage.analytics.insertClicks(projectId, [first, second, { ...first, at: later, hour: new Date('2026-03-10T04:00:00Z') }])
      expect([...again]).toEqual([first.id])
      expect(await storage.analytics.insertClicks(projectId, [])).toEqual(new Set())

      const raw = await storage.analytics.clickFigures(projectId, march({ timeZone: SEOUL, groupBy: 'link' }))
      expect(clicksAndVisitors(raw)).toEqual([
        { start: null, group: '7', clicks: 1, visitors: 0 },
        { start: null, group: null, clicks: 2, visitors: 2 },
      ])
      expect((await storage.analytics.clickFigures(projectId, march({ timeZone: SEOUL })))[0]).toMatchObject({ clicks: 3, visitors: 2, botClicks: 0 })
    })

    it('writes each click once when two transactions write the same clicks at once', async () => {
      const { storage, projectId } = await tokyoProgram(context)
      const at = new Date('2026-03-11T01:00:00Z')
      const shared = Array.from({ length: 20 }, () => clickRow(TOKYO, { affiliateId: 2, at }))
      const own = (count: number) => Array.from({ length: count }, () => clickRow(TOKYO, { affiliateId: 2, at }))
      const [mine, theirs] = [own(3), own(4)]
      let firstWrote: () => void = () => {}
      const wrote = new Promise<void>((resolve) => (firstWrote = resolve))
      const [a, b] = await Promise.all([
        storage.transaction(async (tx) => {
          const written = await tx.analytics.insertClicks(projectId, [...shared, ...mine])
          firstWrote()
          // Still open while the other one writes the same rows (on PostgreSQL it waits for this one).
          await new Promise((resolve) => setTimeout(resolve, 100))
          return written
        }),
        wrote.then(() => storage.transaction((tx) => tx.analytics.insertClicks(projectId, [...theirs, ...shared]))),
      ])
      expect(a.size + b.size).toBe(27)
      expect([...a].filter((id) => b.has(id))).toEqual([])
      expect(new Set([...a, ...b])).toEqual(new Set([...shared, ...mine, ...theirs].map((row) => row.id)))
      expect((await storage.analytics.clickFigures(projectId, march({ timeZone: SEOUL })))[0]!.clicks).toBe(27)
    })

    it('marks visitors new to an affiliate on a day once, in the marks the tracking store counts visits by', async () => {
      const { storage, projectId } = await tokyoProgram(context)
      const marks = [
        { affiliateId: 3, day: '2026-03-10', visitor: 'v1' },
        { affiliateId: 3, day: '2026-03-10', visitor: 'v2' },
        { affiliateId: 3, day: '2026-03-10', visitor: 'v1' },
        { affiliateId: 4, day: '2026-03-10', visitor: 'v1' },
      ]
      expect(await storage.transaction((tx) => tx.analytics.markVisitors(projectId, marks))).toEqual(new Set(['3|2026-03-10|v1', '3|2026-03-10|v2', '4|2026-03-10|v1']))
      const next = [...marks, { affiliateId: 3, day: '2026-03-11', visitor: 'v1' }]
      expect(await storage.analytics.markVisitors(projectId, next)).toEqual(new Set(['3|2026-03-11|v1']))
      expect(await storage.analytics.markVisitors(projectId, [])).toEqual(new Set())
      expect(await markVisitor(storage, projectId, 3, '2026-03-11', 'v1')).toBe(false)
      expect(await markVisitor(storage, projectId, 3, '2026-03-11', 'v3')).toBe(true)
      expect(await storage.analytics.markVisitors(projectId, [{ affiliateId: 3, day: '2026-03-11', visitor: 'v3' }])).toEqual(new Set())
    })

    it('adds rollup deltas (a key given twice summed) and reads them by group and bucket, bot clicks apart', async () => {
      const { storage, projectId } = await tokyoProgram(context)
      const key = { affiliateId: 5, linkId: 9, utmSource: 'news', utmMedium: null, utmCampaign: 'spring', country: 'JP', device: 'mobile' as const }
      await storage.transaction((tx) =>
        tx.analytics.addRollups(projectId, [
          { ...key, day: '2026-03-02', clicks: 2, visitors: 1, botClicks: 0 },
          { ...key, day: '2026-03-02', clicks: 1, visitors: 1, botClicks: 4 },
          { ...key, day: '2026-03-09', linkId: null, country: null, clicks: 5, visitors: 2, botClicks: 1 },
          { ...key, day: '2026-04-01', clicks: 100, visitors: 100, botClicks: 100 },
        ]),
      )
      await storage.analytics.addRollups(projectId, [{ ...key, day: '2026-03-02', clicks: 1, visitors: 0, botClicks: 0 }])
      const read = (fields: Partial<AnalyticsRead>) => storage.analytics.clickFigures(projectId, march(fields)).then(sorted)
      expect(await read({ groupBy: 'link', interval: 'week' })).toEqual([
        { start: '2026-03-02', group: '9', clicks: 4, visitors: 2, botClicks: 4 },
        { start: '2026-03-09', group: null, clicks: 5, visitors: 2, botClicks: 1 },
      ])
      expect(await read({ groupBy: 'country' })).toEqual([
        { start: null, group: 'JP', clicks: 4, visitors: 2, botClicks: 4 },
        { start: null, group: null, clicks: 5, visitors: 2, botClicks: 1 },
      ])
      expect(await read({ groupBy: 'utm_medium', interval: 'month', affiliateId: 5, linkId: 9 })).toEqual([{ start: '2026-03-01', group: null, clicks: 4, visitors: 2, botClicks: 4 }])
      expect(await read({ affiliateId: 6 })).toEqual([])
    })

    it('reads the same clicks and visitors from the rollups as from the raw rows, whatever the group and bucket', async () => {
      const { storage, projectId } = await tokyoProgram(context)
      const devices = ['desktop', 'mobile', 'tablet', 'other'] as const
      const rows = Array.from({ length: 240 }, (_, index) =>
        clickRow(TOKYO, {
          affiliateId: 10 + (index % 3),
          // Every 7 hours from 26 February: both ends of March in Tokyo, and the days around them.
          at: new Date(Date.UTC(2026, 1, 26, 0, 30) + index * 7 * 3_600_000),
          linkId: index % 4 === 0 ? null : 100 + (index % 5),
          newVisitor: index % 3 !== 1,
          utmSource: index % 6 === 0 ? null : `source${index % 2}`,
          utmMedium: index % 5 === 0 ? null : 'cpc',
          utmCampaign: index % 7 === 0 ? null : `campaign${index % 3}`,
          country: index % 8 === 0 ? null : ['JP', 'FR', 'US'][index % 3]!,
          device: devices[index % 4]!,
        }),
      )
      await storage.transaction((tx) => writeBatch(tx, projectId, rows))
      for (const groupBy of [null, 'link', 'affiliate', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'device'] as const) {
        for (const interval of [null, 'day', 'week', 'month'] as const) {
          const fromRollups = await storage.analytics.clickFigures(projectId, march({ groupBy, interval }))
          const fromRaw = await storage.analytics.clickFigures(projectId, march({ groupBy, interval, timeZone: SEOUL }))
          expect(clicksAndVisitors(fromRollups), `${groupBy} ${interval}`).toEqual(clicksAndVisitors(fromRaw))
        }
      }
      const all = await storage.analytics.clickFigures(projectId, march())
      const inMarch = rows.filter((row) => row.day.startsWith('2026-03'))
      expect(all).toEqual([{ start: null, group: null, clicks: inMarch.length, visitors: inMarch.filter((row) => row.newVisitor).length, botClicks: 0 }])
    })
  })

  describe('analytics store: outcomes', () => {
    it('counts signups, conversions, revenue and commission by the link and campaign of the click each came through', async () => {
      const { program, storage, projectId } = await tokyoProgram(context, { commission: { purchase: { type: 'percentage', rate: 10 } }, multiTier: { enabled: true, tier2Rate: 50 } })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB', parentAffiliateId: ann.id })
      const at = new Date('2026-03-10T02:00:00Z')
      const spring = clickRow(TOKYO, { affiliateId: bob.id, at, linkId: 11, utmCampaign: 'spring' })
      const summer = clickRow(TOKYO, { affiliateId: bob.id, at, linkId: 12, utmCampaign: 'summer' })
      await storage.transaction((tx) => writeBatch(tx, projectId, [spring, summer]))
      // No way yet to create them with their click through the program: it is set through the storage.
      const withClick = async (email: string, referralCode: string, click: string | null, cents: string) => {
        const referral = await program.referrals.create({ email, referralCode })
        const created = await program.conversions.create({ type: 'purchase', email, baseValue: cents, reference: `order-${email.split('@')[0]}` })
        if (click === null) return created
        await storage.referrals.update(projectId, referral.id, { clickId: click })
        for (const conversion of [created.conversion, created.tier2]) if (conversion) await storage.conversions.update(projectId, conversion.id, { clickId: click })
        return created
      }
      await withClick('c1@example.com', 'BOB', spring.id, '100.00')
      await withClick('c2@example.com', 'BOB', summer.id, '50.00')
      await withClick('c3@example.com', 'ANN', null, '20.00')
      const refunded = await withClick('c4@example.com', 'BOB', spring.id, '70.00')
      await program.conversions.update(refunded.conversion.id, { status: 'refunded' })
      // A referred user with a click that is not stored (dropped, or of another project): no group.
      const gone = await program.referrals.create({ email: 'c5@example.com', referralCode: 'BOB' })
      await storage.referrals.update(projectId, gone.id, { clickId: 'clk_gone' })

      const read = (fields: Partial<AnalyticsRead>) => storage.analytics.outcomeFigures(projectId, march(fields)).then(sorted)
      const row = (group: string | null, signups: number, conversions: number, revenue: bigint, commission: bigint): OutcomeFigures => ({ start: null, group, signups, conversions, revenue, commission })
      expect(await read({ groupBy: 'link' })).toEqual([
        row('11', 2, 1, 10_000n, 1_500n),
        row('12', 1, 1, 5_000n, 750n),
        row(null, 2, 1, 2_000n, 200n),
      ])
      expect(await read({ groupBy: 'utm_campaign', interval: 'week' })).toEqual(sorted([
        { ...row('spring', 2, 1, 10_000n, 1_500n), start: '2026-03-09' },
        { ...row('summer', 1, 1, 5_000n, 750n), start: '2026-03-09' },
        { ...row(null, 2, 1, 2_000n, 200n), start: '2026-03-09' },
      ]))
      expect(await read({ groupBy: 'affiliate' })).toEqual(sorted([row(String(ann.id), 1, 1, 2_000n, 950n), row(String(bob.id), 4, 2, 15_000n, 1_500n)]))
      expect(await read({ linkId: 11 })).toEqual([row(null, 2, 1, 10_000n, 1_500n)])
      expect(await read({ affiliateId: bob.id, groupBy: 'device' })).toEqual(sorted([row('desktop', 3, 2, 15_000n, 1_500n), row(null, 1, 0, 0n, 0n)]))
      expect(await read({ from: new Date('2026-03-11T15:00:00Z') })).toEqual([])
    })

    it('keeps projects apart: clicks, rollups, visitor marks and the clicks outcomes are joined to', async () => {
      const one = await tokyoProgram(context)
      const other = await tokyoProgram(context)
      const annOne = await one.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const annOther = await other.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
      const at = new Date('2026-03-10T02:00:00Z')
      const click = clickRow(TOKYO, { affiliateId: annOne.id, at, linkId: 11, newVisitor: true })
      await one.storage.transaction((tx) => writeBatch(tx, one.projectId, [click]))
      // The same click id and visitor in the other project are new there.
      expect([...(await other.storage.analytics.insertClicks(other.projectId, [{ ...click, affiliateId: annOther.id, linkId: 99 }]))]).toEqual([click.id])
      expect((await one.storage.analytics.markVisitors(one.projectId, [{ affiliateId: 1, day: '2026-03-10', visitor: 'shared' }])).size).toBe(1)
      expect((await other.storage.analytics.markVisitors(other.projectId, [{ affiliateId: 1, day: '2026-03-10', visitor: 'shared' }])).size).toBe(1)
      const referral = await other.program.referrals.create({ email: 'c1@example.com', referralCode: 'ANN' })
      await other.storage.referrals.update(other.projectId, referral.id, { clickId: click.id })

      expect(await one.storage.analytics.clickFigures(one.projectId, march({ groupBy: 'link' }))).toEqual([{ start: null, group: '11', clicks: 1, visitors: 1, botClicks: 0 }])
      expect(await one.storage.analytics.clickFigures(one.projectId, march({ groupBy: 'link', timeZone: SEOUL }))).toEqual([{ start: null, group: '11', clicks: 1, visitors: 1, botClicks: 0 }])
      expect(await other.storage.analytics.clickFigures(other.projectId, march({ groupBy: 'link' }))).toEqual([])
      expect(await other.storage.analytics.clickFigures(other.projectId, march({ groupBy: 'link', timeZone: SEOUL }))).toEqual([{ start: null, group: '99', clicks: 1, visitors: 1, botClicks: 0 }])
      expect(await one.storage.analytics.outcomeFigures(one.projectId, march({ groupBy: 'link' }))).toEqual([])
      expect(await other.storage.analytics.outcomeFigures(other.projectId, march({ groupBy: 'link' }))).toEqual([{ start: null, group: '99', signups: 1, conversions: 0, revenue: 0n, commission: 0n }])
    })
  })

  describe('analytics store: retention', () => {
    // The months dropped are the whole storage's: no other case writes clicks before 2026.
    it('drops the raw clicks of the months before a date, keeps the later ones and the rollups', async () => {
      const { storage, projectId } = await tokyoProgram(context)
      const months = ['2025-11-15T00:00:00Z', '2025-12-31T23:30:00Z', '2026-01-01T00:10:00Z', '2026-02-10T00:00:00Z']
      const rows = months.map((at) => clickRow(TOKYO, { affiliateId: 1, at: new Date(at) }))
      await storage.transaction((tx) => writeBatch(tx, projectId, rows))
      await storage.clickPartitions.prepare(new Date('2025-11-01T00:00:00Z'), 3)
      await storage.clickPartitions.dropBefore(new Date('2026-01-20T00:00:00Z'))
      const wide = { from: new Date('2025-10-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') }
      const raw = await storage.analytics.clickFigures(projectId, march({ ...wide, timeZone: SEOUL, interval: 'month' }))
      expect(sorted(raw).map(({ start, clicks }) => ({ start, clicks }))).toEqual([
        { start: '2026-01-01', clicks: 1 },
        { start: '2026-02-01', clicks: 1 },
      ])
      const rolled = await storage.analytics.clickFigures(projectId, march({ ...wide, interval: 'month' }))
      expect(sorted(rolled).map(({ start, clicks }) => ({ start, clicks }))).toEqual([
        { start: '2025-11-01', clicks: 1 },
        { start: '2026-01-01', clicks: 2 },
        { start: '2026-02-01', clicks: 1 },
      ])
    })
  })
}
