// The affiliates repository (its table, reading the row with what its events need, and the
// statements of codes, link keys and imports) and the statement changing an affiliate's running
// totals (totalsUpdate: also part of a new conversion's insert, repositories/conversions.ts).
import { affiliateRules } from '../../../core/ports/entity-filters.js'
import type { AffiliateRepository } from '../../../core/ports/storage.js'
import type { TotalsDelta } from '../../../core/model/types.js'
import { decode, run } from '../codec.js'
import { param, returningClause, type CounterWrite } from '../counter-write.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import { affiliateTotalsColumns, type Tables } from '../tables.js'
import type { TransactionState } from './transaction-state.js'

export function affiliateRepository(db: SqlClient, t: Tables, cache: TransactionState | null): AffiliateRepository {
  const table = t.affiliates
  // In a transaction, reading an affiliate also fetches the project's active webhook endpoints
  // and whether mail is on, when not yet known: the events the transaction records next then cost
  // no extra round trip.
  const find = async (projectId: string, where: string, params: unknown[]) => {
    if (!cache || (cache.endpoints.has(projectId) && cache.mailOn !== null)) return table.findOne(db, `project_id = $1 AND ${where}`, [projectId, ...params])
    const rows = await run(
      db,
      `SELECT *, (SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'events', e.events) ORDER BY e.id), '[]'::jsonb)
         FROM ${t.endpoints.name} e WHERE e.project_id = $1 AND e.active) AS ak_endpoints,
         EXISTS (SELECT 1 FROM ${t.mailSwitch}) AS ak_mail
       FROM ${table.name} WHERE project_id = $1 AND ${where} LIMIT 1`,
      [projectId, ...params],
    )
    if (!rows[0]) return null
    cache.mailOn = rows[0].ak_mail === true
    const endpoints = decode('json', rows[0].ak_endpoints) as Array<{ id: number | string; events: string[] }>
    cache.endpoints.set(projectId, endpoints.map((endpoint) => ({ id: Number(endpoint.id), events: endpoint.events })))
    return table.read(rows[0])
  }
  return {
    // Its conversions, coupons, clicks and payouts go and its referrals and sub-affiliates are
    // detached by the foreign keys of migration 2, in delete's one statement.
    ...sqlEntityTable(db, table, affiliateRules, find),
    async insert(affiliate) {
      const values = { ...affiliate, ...affiliate.totals }
      // Inside a transaction a failed insert would abort it; the savepoint lets the core retry
      // a referral-code collision in the same transaction.
      return db.inTransaction ? db.transaction((inner) => table.insert(inner, values, affiliateTotalsColumns)) : table.insert(db, values, affiliateTotalsColumns)
    },
    async insertMany(affiliates) {
      const rows = await table.insertManyUnlessConflict(db, affiliates, '', 'id, email')
      const ids = new Map(rows.map((row) => [String(row.email), row.id]))
      return affiliates.map((affiliate) => {
        const id = ids.get(affiliate.email)
        // A second row of this call with the same email was not inserted: the first one was.
        if (id === undefined || !ids.delete(affiliate.email)) return null
        return { ...table.inserted(affiliate, id), totals: { ...affiliate.totals } }
      })
    },
    async takenCodes(projectId, codes) {
      const rows = await run(
        db,
        `SELECT lower(referral_code) AS code FROM ${table.name} WHERE project_id = $1 AND lower(referral_code) = ANY($2::text[])
         UNION SELECT lower(key) FROM ${t.links.name} WHERE project_id = $1 AND lower(key) = ANY($2::text[])`,
        [projectId, codes.map((code) => code.toLowerCase())],
      )
      return new Set(rows.map((row) => String(row.code)))
    },
    // A referral code, else a link key: one statement, on the two unique indexes.
    getByCode: (projectId, code) =>
      find(
        projectId,
        `id = coalesce((SELECT id FROM ${table.name} WHERE project_id = $1 AND lower(referral_code) = lower($2)),
          (SELECT affiliate_id FROM ${t.links.name} WHERE project_id = $1 AND lower(key) = lower($2)))`,
        [code],
      ),
    async adjustTotals(projectId, id, delta: TotalsDelta) {
      const params: unknown[] = []
      const update = totalsUpdate(table.name, projectId, id, delta, params)
      if (update) await run(db, update.text(), params)
    },
  }
}

/** The UPDATE adding delta to the affiliate's totals when `guard` holds; null when delta changes nothing. */
export function totalsUpdate(table: string, projectId: string, id: number, delta: TotalsDelta, params: unknown[], guard = 'true'): CounterWrite | null {
  const sets: Array<readonly [column: string, placeholder: string]> = []
  for (const [field, value] of Object.entries(delta)) {
    const column = affiliateTotalsColumns[field as keyof typeof affiliateTotalsColumns]?.column
    if (column && value !== undefined) sets.push([column, param(params, String(value))])
  }
  if (sets.length === 0) return null
  const [project, affiliate] = [projectId, id].map((value) => param(params, value))
  return {
    shape: `totals ${sets[0]![1]} ${sets.map(([column]) => column).join(',')} ${guard}`,
    text: (returning) => `UPDATE ${table} SET ${sets.map(([column, placeholder]) => `${column} = ${column} + ${placeholder}::numeric`).join(', ')}
    WHERE project_id = ${project} AND id = ${affiliate} AND ${guard}${returningClause(returning)}`,
  }
}

/** adjustTotals for many affiliates in one statement, by ascending id (concurrent writers queue rather than deadlock). */
export async function adjustTotalsMany(db: SqlClient, table: string, projectId: string, deltas: ReadonlyMap<number, TotalsDelta>): Promise<void> {
  if (deltas.size === 0) return
  const ids = [...deltas.keys()].sort((a, b) => a - b)
  const fields = Object.entries(affiliateTotalsColumns)
  await run(
    db,
    `UPDATE ${table} a SET ${fields.map(([, { column }], index) => `${column} = a.${column} + d.v${index}`).join(', ')}
     FROM unnest($2::bigint[], ${fields.map((_, index) => `$${index + 3}::numeric[]`).join(', ')}) AS d (id, ${fields.map((_, index) => `v${index}`).join(', ')})
     WHERE a.project_id = $1 AND a.id = d.id`,
    [projectId, ids, ...fields.map(([field]) => ids.map((id) => String((deltas.get(id) as Record<string, bigint | number | undefined>)[field] ?? 0)))],
  )
}
