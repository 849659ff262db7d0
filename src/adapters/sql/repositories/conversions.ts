// The conversions repository, and the SQL creating a conversion runs here: insertConversion, with
// the counter writes (the affiliate's totals: totalsUpdate in affiliates.ts; the day's counters:
// dailyUpsert in tracking.ts) and its ledger movement (conversionMovementInsert in ledger.ts)
// merged into it as CTEs by countedInsert, so a create is one statement (the project's share of
// the day's counters is written last, before COMMIT: addProjectDays); under tiers or bonuses it
// also answers the affiliate's row and its day's figures as written. The rest of a create: the
// affiliate's read (affiliates.ts) and its outbox rows, written just before COMMIT
// (transaction-state.ts). Also the held balance from the hold-window index, and oldest-first
// settling in one statement.
import type { DayFigures } from '../../../core/rules/commission-periods.js'
import { conversionRules } from '../../../core/ports/entity-filters.js'
import type { ConversionCounts, ConversionInsertResult, ConversionRepository, Insert } from '../../../core/ports/storage.js'
import { conversionMovement } from '../../../core/rules/ledger-movements.js'
import type { AffiliateStatus, Conversion, LedgerMovement, TotalsDelta } from '../../../core/model/types.js'
import type { VisitorSignal } from '../../../core/ports/tracking-storage.js'
import { decode, run } from '../codec.js'
import { param, type CounterWrite } from '../counter-write.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import { money, type Tables } from '../tables.js'
import { adjustTotalsMany, totalsUpdate } from './affiliates.js'
import { conversionMovementInsert } from './ledger.js'
import { dailyUpsert, dayFiguresSubquery, readDayFigures, type DayDelta } from './day-counters.js'
import { addDays, addProjectDays } from './tracking.js'
import type { TransactionState } from './transaction-state.js'

/**
 * A new conversion, every column but id, unless its reference is taken (conversions_reference_key:
 * then it writes nothing, an answer rather than an error). Only the new id comes back: the row is
 * the record written.
 */
function insertConversion(t: Tables): string {
  let text = t.statements.get('conversion insert')
  if (text === undefined) {
    const { names, placeholders } = t.conversions.insertColumns()
    text = `INSERT INTO ${t.conversions.name} (${names})
        VALUES (${placeholders})
        ON CONFLICT (project_id, reference) WHERE reference IS NOT NULL DO NOTHING RETURNING id`
    t.statements.set('conversion insert', text)
  }
  return text
}

/** A new conversion's counter writes, each null when it writes nothing. */
interface CountWrites {
  totals: CounterWrite | null
  daily: CounterWrite | null
  movement: CounterWrite | null
}

/**
 * The insert with the counter writes, each done only when a row was inserted; kept per shape of
 * writes. `answered`: it also answers the affiliate's tier and status as the totals write left them
 * and the revenue and customers of its day's row as written (only these: every column of the
 * affiliate's row would cost about as much as the read this answer replaces).
 */
function countedInsert(t: Tables, writes: CountWrites, answered: boolean): string {
  const named = (['totals', 'daily', 'movement'] as const).flatMap((name) => (writes[name] ? [[name, writes[name]] as const] : []))
  if (named.length === 0) return insertConversion(t)
  const shape = `conversion insert${answered ? ' answered' : ''}; ${named.map(([, write]) => write.shape).join('; ')}`
  let text = t.statements.get(shape)
  if (text === undefined) {
    const returning = { totals: answered ? 'id, tier, status' : undefined, daily: answered ? 'affiliate_id, revenue_minor, customers' : undefined, movement: undefined }
    const ctes = named.map(([name, write]) => `counted_${name} AS (${write.text(returning[name])})`).join(', ')
    const day = writes.daily
      ? { columns: ', day.revenue_minor AS ak_day_revenue, day.customers AS ak_day_customers', join: ' LEFT JOIN counted_daily day ON true' }
      : { columns: '', join: '' }
    const select = answered
      ? `SELECT inserted.id, counted_totals.tier AS ak_tier, counted_totals.status AS ak_status${day.columns} FROM inserted CROSS JOIN counted_totals${day.join}`
      : 'SELECT id FROM inserted'
    text = `WITH inserted AS (${insertConversion(t)}), ${ctes}
         ${select}`
    t.statements.set(shape, text)
  }
  return text
}

export function conversionRepository(db: SqlClient, t: Tables, state: TransactionState | null): ConversionRepository {
  const table = t.conversions
  /** Inserts and, only when a row was inserted, counts it, in one statement: a round trip per create. */
  const insertNew = async (conversion: Insert<Conversion>, counts: ConversionCounts | undefined): Promise<ConversionInsertResult | null> => {
    const params = table.insertColumns().params(conversion)
    if (!counts) {
      const rows = await run(db, insertConversion(t), params)
      return rows[0] ? { inserted: true, conversion: table.inserted(conversion, rows[0].id) } : null
    }
    const inserted = 'EXISTS (SELECT 1 FROM inserted)'
    const { projectId, affiliateId } = conversion
    const answered = counts.answerCounted === true
    // Computed with a stand-in id: the statement writes the inserted row's.
    const movement = counts.ledgerAt ? conversionMovement({ ...conversion, id: 0 }, { before: null, after: conversion }, counts.totals, counts.ledgerAt) : null
    const writes: CountWrites = {
      // Answered, the affiliate's row is written (and so locked) even when the totals do not move.
      totals: totalsUpdate(t.affiliates.name, projectId, affiliateId, answered ? { countedValue: 0n, ...counts.totals } : counts.totals, params, inserted),
      daily: dailyUpsert(t.daily, projectId, affiliateId, counts.day, counts.daily, params, inserted),
      movement: movement && conversionMovementInsert(t, movement, params),
    }
    const row = (await run(db, countedInsert(t, writes, answered), params))[0]
    if (!row) return null
    if (writes.daily) await addProjectDays(db, t.daily, state, [{ projectId, affiliateId, day: counts.day, delta: counts.daily }])
    if (!answered) return { inserted: true, conversion: table.inserted(conversion, row.id) }
    const affiliate = { tier: row.ak_tier === null ? null : String(row.ak_tier), status: String(row.ak_status) as AffiliateStatus }
    // Absent when the day's counters were not written.
    const day: DayFigures | null = row.ak_day_revenue === undefined ? null : { day: counts.day, revenue: money(row.ak_day_revenue), customers: Number(row.ak_day_customers) }
    return { inserted: true, conversion: table.inserted(conversion, row.id), counted: { affiliate, day } }
  }
  const plain = sqlEntityTable(db, table, conversionRules)

  return {
    ...plain,
    // One multi-row insert, then the counts of the rows it inserted: one totals update and one daily upsert.
    async insertMany(items) {
      const inserted: Array<Conversion | null> = []
      for (const [projectId, group] of byProject(items)) {
        const rows = await table.insertManyUnlessConflict(db, group.map(({ conversion }) => conversion), '(project_id, reference) WHERE reference IS NOT NULL', 'id, reference')
        const ids = new Map(rows.map((row) => [String(row.reference), row.id]))
        const totals = new Map<number, TotalsDelta>()
        const daily: DayDelta[] = []
        const movements: Insert<LedgerMovement>[] = []
        for (const { conversion, counts, index } of group) {
          const id = ids.get(conversion.reference!)
          // A second item of this call with the same reference was not inserted: the first one was.
          if (id === undefined || !ids.delete(conversion.reference!)) continue
          inserted[index] = table.inserted(conversion, id)
          totals.set(conversion.affiliateId, addTotals(totals.get(conversion.affiliateId), counts.totals))
          daily.push({ projectId, affiliateId: conversion.affiliateId, day: counts.day, delta: counts.daily })
          const movement = counts.ledgerAt && conversionMovement(inserted[index]!, { before: null, after: conversion }, counts.totals, counts.ledgerAt)
          if (movement) movements.push(movement)
        }
        await adjustTotalsMany(db, t.affiliates.name, projectId, totals)
        await addDays(db, t.daily, state, daily)
        await t.ledger.insertMany(db, movements)
      }
      return Array.from(items, (_, index) => inserted[index] ?? null)
    },
    async insert(conversion, counts) {
      for (let attempt = 0; ; attempt += 1) {
        const inserted = await insertNew(conversion, counts)
        if (inserted) return inserted
        // The conflicting row is committed (READ COMMITTED sees it) unless it was deleted since.
        const existing = await plain.first(conversion.projectId, { reference: conversion.reference! })
        if (existing) return { inserted: false, existing }
        if (attempt >= 3) throw new Error('conversions.insert: the conflicting conversion vanished repeatedly')
      }
    },
    async heldSummary(projectId, affiliateId, now) {
      const rows = await run(
        db,
        `SELECT coalesce(sum(value_minor), 0) AS amount, min(hold_until) AS next_release_at FROM ${table.name}
         WHERE project_id = $1 AND affiliate_id = $2 AND status = 'active' AND NOT paid AND hold_until > $3`,
        [projectId, affiliateId, now],
      )
      const row = rows[0]!
      return { amount: money(row.amount), nextReleaseAt: row.next_release_at ? new Date(row.next_release_at as Date) : null }
    },
    async listOpen(projectId, affiliateId) {
      const rows = await run(
        db,
        `SELECT id, affiliate_id, value_minor, hold_until, created_at FROM ${table.name}
         WHERE project_id = $1 AND status = 'active' AND NOT paid AND ($2::bigint IS NULL OR affiliate_id = $2::bigint)
         ORDER BY created_at, id`,
        [projectId, affiliateId ?? null],
      )
      return rows.map((row) => ({
        id: Number(row.id),
        affiliateId: Number(row.affiliate_id),
        unpaid: money(row.value_minor),
        holdUntil: new Date(row.hold_until as Date),
        createdAt: new Date(row.created_at as Date),
      }))
    },
    async settleOldestFirst({ projectId, affiliateId, budget, now, payoutId }) {
      // Values are >= 0, so the running sum only grows: every row with running <= budget is
      // exactly the oldest-first prefix that fits.
      const rows = await run(
        db,
        `WITH eligible AS (
           SELECT id, sum(value_minor) OVER (ORDER BY created_at, id ROWS UNBOUNDED PRECEDING) AS running
           FROM ${table.name}
           WHERE project_id = $1 AND affiliate_id = $2 AND status = 'active' AND NOT paid AND hold_until <= $3
         ), settled AS (
           UPDATE ${table.name} c SET paid = true, paid_by_payout_id = $5
           FROM eligible WHERE c.id = eligible.id AND eligible.running <= $4::numeric
           RETURNING c.value_minor
         )
         SELECT count(*) AS count, coalesce(sum(value_minor), 0) AS amount FROM settled`,
        [projectId, affiliateId, now, budget.toString(), payoutId],
      )
      return { count: Number(rows[0]!.count), amount: money(rows[0]!.amount) }
    },
    // One statement, built once per set of parts asked for.
    async createReads(projectId, affiliateId, query) {
      const params: unknown[] = [projectId, affiliateId]
      const parts: string[] = []
      const shape: string[] = []
      if (query.days) {
        parts.push(`${dayFiguresSubquery(t, 'given.affiliate_id', param(params, query.days.from), param(params, query.days.to))} AS days`)
        shape.push('days')
      }
      if (query.visitorSignalsOf !== null) {
        parts.push(`(SELECT string_agg(kind, ',') FROM ${t.schema}.visitor_signals WHERE project_id = $1 AND affiliate_id = given.affiliate_id AND visitor = ${param(params, query.visitorSignalsOf)}) AS signals`)
        shape.push('signals')
      }
      if (query.signupsOf !== null) {
        parts.push(`(SELECT count(*) FROM ${table.name} WHERE project_id = $1 AND click_visitor = ${param(params, query.signupsOf)} AND type = 'signup') AS signups`)
        shape.push('signups')
      }
      if (query.cardCustomersOf !== null) {
        parts.push(
          `(SELECT coalesce(jsonb_agg(customer_email), '[]'::jsonb) FROM (SELECT DISTINCT customer_email FROM ${table.name}
             WHERE project_id = $1 AND card_fingerprint = ${param(params, query.cardCustomersOf)} AND customer_email IS NOT NULL LIMIT 100) card) AS card`,
        )
        shape.push('card')
      }
      if (query.affiliateSignupsIn) {
        const from = param(params, query.affiliateSignupsIn.from)
        const to = param(params, query.affiliateSignupsIn.to)
        parts.push(`(SELECT count(*) FROM ${table.name} WHERE project_id = $1 AND affiliate_id = given.affiliate_id AND type = 'signup' AND created_at >= ${from} AND created_at < ${to}) AS affiliate_signups`)
        shape.push('affiliate signups')
      }
      if (parts.length === 0) return { days: [], visitorSignals: [], signups: null, cardCustomers: [] }
      const key = `conversion create reads: ${shape.join(', ')}`
      let text = t.statements.get(key)
      if (text === undefined) {
        text = `SELECT ${parts.join(', ')} FROM (SELECT $2::bigint AS affiliate_id) given`
        t.statements.set(key, text)
      }
      const row = (await run(db, text, params))[0]!
      return {
        days: query.days ? readDayFigures(row.days) : [],
        visitorSignals: query.visitorSignalsOf === null || row.signals === null ? [] : (String(row.signals).split(',') as VisitorSignal[]),
        signups: query.signupsOf === null ? null : Number(row.signups),
        cardCustomers: query.cardCustomersOf === null ? [] : (decode('json', row.card) as string[]),
        affiliateSignups: query.affiliateSignupsIn ? Number(row.affiliate_signups) : null,
      }
    },
  }
}

function byProject(items: ReadonlyArray<{ conversion: Insert<Conversion>; counts: ConversionCounts }>) {
  const groups = new Map<string, Array<{ conversion: Insert<Conversion>; counts: ConversionCounts; index: number }>>()
  items.forEach((item, index) => {
    const group = groups.get(item.conversion.projectId) ?? []
    group.push({ ...item, index })
    groups.set(item.conversion.projectId, group)
  })
  return groups
}

function addTotals(sum: TotalsDelta | undefined, delta: TotalsDelta): TotalsDelta {
  const result: Record<string, bigint | number> = { ...sum }
  for (const [field, value] of Object.entries(delta)) {
    if (value === undefined) continue
    const before = result[field]
    result[field] = typeof value === 'bigint' ? ((before as bigint | undefined) ?? 0n) + value : ((before as number | undefined) ?? 0) + value
  }
  return result as TotalsDelta
}
