// The raw clicks' monthly partitions on PGlite and PostgreSQL (docs/analytics.md "Retention and
// partitions"): made ahead when the storage opens, a click written into its month's partition
// (made for it when missing), clicks that went to the default partition moved into their month
// when it is made, and old months dropped whole while newer ones and the default partition stay.
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { keepClickPartitions, type StoragePort } from '../../../src/index.js'
import { clickRow } from '../../support/analytics/clicks.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'

type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>

interface Opened {
  storage: StoragePort
  schema: string
  query: Query
  cleanup(): Promise<void>
}

const adapters: Array<{ name: string; skip?: string; open(): Promise<Opened> }> = [
  {
    name: 'pglite',
    async open() {
      const db = new PGlite()
      const storage = pgliteStorage({ db })
      return {
        storage,
        schema: 'affiliate_kit',
        query: async (text, params) => (await db.query(text, params)).rows as Array<Record<string, unknown>>,
        cleanup: async () => {
          await storage.close()
          await db.close()
        },
      }
    },
  },
  {
    name: 'postgres',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    async open() {
      const fresh = freshPostgresStorage()
      const client = new pg.Client({ connectionString: DATABASE_URL })
      await client.connect()
      return {
        storage: fresh.storage,
        schema: fresh.schema,
        query: async (text, params) => (await client.query(text, params)).rows as Array<Record<string, unknown>>,
        cleanup: async () => {
          await client.end()
          await fresh.cleanup()
        },
      }
    },
  },
]

const monthName = (at: Date) => `link_clicks_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`
const monthsFrom = (at: Date, count: number) => Array.from({ length: count }, (_, index) => monthName(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + index, 1))))

for (const adapter of adapters) {
  const suite = adapter.skip ? describe.skip : describe
  suite(`click partitions: ${adapter.name}${adapter.skip ? ` (skipped: ${adapter.skip})` : ''}`, () => {
    let opened: Opened
    let projectId: string
    beforeAll(async () => {
      opened = await adapter.open()
      projectId = `proj_partitions_${process.pid}`
      await opened.storage.projects.insert({ id: projectId, name: projectId, settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } }, createdAt: new Date() })
    })
    afterAll(() => opened?.cleanup())

    const partitions = async () =>
      (
        await opened.query(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
           JOIN pg_namespace n ON n.oid = p.relnamespace WHERE n.nspname = $1 AND p.relname = 'link_clicks' ORDER BY 1`,
          [opened.schema],
        )
      ).map((row) => String(row.name))
    /** The table each click of these ids is stored in. */
    const storedIn = async (ids: string[]) =>
      (await opened.query(`SELECT id, tableoid::regclass::text AS t FROM "${opened.schema}".link_clicks WHERE id = ANY($1::text[]) ORDER BY id`, [ids])).map((row) =>
        String(row.t).replace(/^.*\./, ''),
      )

    it('makes the current month and the 3 after it when the storage opens, beside the default partition', async () => {
      await opened.storage.ping()
      expect(await partitions()).toEqual(expect.arrayContaining([...monthsFrom(new Date(), 4), 'link_clicks_default']))
    })

    it('writes a click into the partition of its month, made first when the month has none', async () => {
      const now = clickRow('UTC', { affiliateId: 1, at: new Date() })
      const later = clickRow('UTC', { affiliateId: 1, at: new Date('2031-05-31T23:59:59Z') })
      const next = clickRow('UTC', { affiliateId: 1, at: new Date('2031-06-01T00:00:00Z') })
      const written = await opened.storage.transaction((tx) => tx.analytics.insertClicks(projectId, [now, later, next]))
      expect(written.size).toBe(3)
      expect(await storedIn([later.id, next.id])).toEqual(['link_clicks_2031_05', 'link_clicks_2031_06'])
      expect(await storedIn([now.id])).toEqual([monthName(new Date())])
      // Making made months again changes nothing.
      await opened.storage.clickPartitions.prepare(new Date('2031-05-10T00:00:00Z'), 1)
      expect((await partitions()).filter((name) => name.startsWith('link_clicks_2031'))).toEqual(['link_clicks_2031_05', 'link_clicks_2031_06'])
    })

    it('moves the clicks a month without a partition left in the default partition into its partition when it is made', async () => {
      const stray = clickRow('UTC', { affiliateId: 1, at: new Date('2032-01-15T10:00:00Z') })
      // Written past the storage, as a write made while the month could not be made would be.
      await opened.query(
        `INSERT INTO "${opened.schema}".link_clicks (project_id, id, hour, at, day, affiliate_id, new_visitor, device) VALUES ($1, $2, $3, $4, $5, 1, false, 'desktop')`,
        [projectId, stray.id, stray.hour, stray.at, stray.day],
      )
      expect(await storedIn([stray.id])).toEqual(['link_clicks_default'])
      await opened.storage.clickPartitions.prepare(new Date('2032-01-01T00:00:00Z'), 0)
      expect(await storedIn([stray.id])).toEqual(['link_clicks_2032_01'])
      expect(await opened.query(`SELECT count(*)::int AS n FROM "${opened.schema}".link_clicks_default`)).toEqual([{ n: 0 }])
      // The moved month is a partition like the others: its clicks are read and deduplicated.
      expect(await opened.storage.analytics.insertClicks(projectId, [stray])).toEqual(new Set())
    })

    it('drops the months wholly before a date, keeps newer months and the default partition, and deletes the default partition’s older clicks', async () => {
      await opened.storage.clickPartitions.prepare(new Date('2020-01-01T00:00:00Z'), 3)
      const rows = ['2020-01-10', '2020-02-29', '2020-03-01', '2020-04-30'].map((day) => clickRow('UTC', { affiliateId: 1, at: new Date(`${day}T12:00:00Z`) }))
      await opened.storage.analytics.insertClicks(projectId, rows)
      const stray = clickRow('UTC', { affiliateId: 1, at: new Date('2019-12-31T12:00:00Z') })
      await opened.query(
        `INSERT INTO "${opened.schema}".link_clicks (project_id, id, hour, at, day, affiliate_id, new_visitor, device) VALUES ($1, $2, $3, $4, $5, 1, false, 'desktop')`,
        [projectId, stray.id, stray.hour, stray.at, stray.day],
      )
      expect(await opened.storage.clickPartitions.dropBefore(new Date('2020-03-15T00:00:00Z'))).toBe(2)
      const left = await partitions()
      expect(left).toEqual(expect.arrayContaining(['link_clicks_2020_03', 'link_clicks_2020_04', 'link_clicks_default', 'link_clicks_2031_05']))
      expect(left).not.toEqual(expect.arrayContaining(['link_clicks_2020_01']))
      expect(left).not.toEqual(expect.arrayContaining(['link_clicks_2020_02']))
      expect((await storedIn(rows.map((row) => row.id))).sort()).toEqual(['link_clicks_2020_03', 'link_clicks_2020_04'])
      expect(await storedIn([stray.id])).toEqual([])
      expect(await opened.storage.clickPartitions.dropBefore(new Date('2020-03-15T00:00:00Z'))).toBe(0)
      // A dropped month is made again for a click of it.
      const back = clickRow('UTC', { affiliateId: 1, at: new Date('2020-01-05T00:00:00Z') })
      await opened.storage.analytics.insertClicks(projectId, [back])
      expect(await storedIn([back.id])).toEqual(['link_clicks_2020_01'])
    })

    it('the pruning pass makes the next months and drops those past the months kept (last: it drops every earlier month of this storage)', async () => {
      const now = new Date('2035-06-15T00:00:00Z')
      const kept = clickRow('UTC', { affiliateId: 1, at: new Date('2035-04-01T00:00:00Z') })
      const old = clickRow('UTC', { affiliateId: 1, at: new Date('2035-03-31T23:59:59Z') })
      await opened.storage.analytics.insertClicks(projectId, [kept, old])
      const before = (await partitions()).filter((name) => name !== 'link_clicks_default' && name < 'link_clicks_2035_04').length
      expect(await keepClickPartitions(opened.storage, now, { clickRetentionMonths: 2 })).toBe(before)
      expect((await partitions()).filter((name) => name !== 'link_clicks_default')).toEqual(['link_clicks_2035_04', 'link_clicks_2035_06', 'link_clicks_2035_07', 'link_clicks_2035_08', 'link_clicks_2035_09'])
      expect(await storedIn([kept.id, old.id])).toEqual(['link_clicks_2035_04'])
      expect(await keepClickPartitions(opened.storage, now)).toBe(0)
    })
  })
}
