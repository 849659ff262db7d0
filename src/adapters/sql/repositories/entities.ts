// Repositories of the plain entities: projects, API keys, affiliates, referrals, coupons,
// clicks, payouts and webhook endpoints.
import type {
  AffiliateRepository,
  ApiKeyRepository,
  ClickRepository,
  CouponRepository,
  PayoutRepository,
  ProjectRepository,
  ReferralRepository,
  WebhookEndpointRepository,
} from '../../../core/storage.js'
import type { TotalsDelta } from '../../../core/types.js'
import { decode, encode, run } from '../codec.js'
import type { SqlClient } from '../executor.js'
import { affiliateTotalsFields } from '../../../core/entities.js'
import { totalsUpdate } from '../counters.js'
import type { Tables } from '../tables.js'
import { flushPending, type TransactionState } from './transaction-state.js'

export function projectRepository(db: SqlClient, t: Tables): ProjectRepository {
  return {
    insert: (project) => t.projects.insert(db, { ...project, settingsVersion: 1 }),
    get: (id) => t.projects.findOne(db, 'id = $1', [id]),
    getByName: (name) => t.projects.findOne(db, 'name = $1', [name]),
    async update(id, patch) {
      const rows = await run(
        db,
        `UPDATE ${t.projects.name} SET name = coalesce($2, name), settings = coalesce($3::jsonb, settings),
          settings_version = settings_version + CASE WHEN $3::jsonb IS NULL THEN 0 ELSE 1 END
         WHERE id = $1 RETURNING *`,
        [id, patch.name ?? null, encode('json', patch.settings)],
      )
      return rows[0] ? t.projects.read(rows[0]) : null
    },
  }
}

export function apiKeyRepository(db: SqlClient, t: Tables): ApiKeyRepository {
  return {
    insert: (key) => t.apiKeys.insert(db, key),
    findByHash: (hash) => t.apiKeys.findOne(db, 'hash = $1', [hash]),
    async list(projectId) {
      const rows = await run(db, `SELECT * FROM ${t.apiKeys.name} WHERE project_id = $1 ORDER BY id`, [projectId])
      return rows.map((row) => t.apiKeys.read(row))
    },
    async revoke(projectId, id, at) {
      const rows = await run(
        db,
        `UPDATE ${t.apiKeys.name} SET revoked_at = $3 WHERE project_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id`,
        [projectId, id, at],
      )
      return rows.length > 0
    },
  }
}

export function affiliateRepository(db: SqlClient, t: Tables, cache: TransactionState | null): AffiliateRepository {
  const table = t.affiliates
  // In a transaction, reading an affiliate also fetches the project's active webhook endpoints
  // when not yet known: the events the transaction records next then cost no extra round trip.
  const find = async (projectId: string, where: string, params: unknown[]) => {
    if (!cache || cache.endpoints.has(projectId)) return table.findOne(db, `project_id = $1 AND ${where}`, [projectId, ...params])
    const rows = await run(
      db,
      `SELECT *, (SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'events', e.events) ORDER BY e.id), '[]'::jsonb)
         FROM ${t.endpoints.name} e WHERE e.project_id = $1 AND e.active) AS ak_endpoints
       FROM ${table.name} WHERE project_id = $1 AND ${where} LIMIT 1`,
      [projectId, ...params],
    )
    if (!rows[0]) return null
    const endpoints = decode('json', rows[0].ak_endpoints) as Array<{ id: number | string; events: string[] }>
    cache.endpoints.set(projectId, endpoints.map((endpoint) => ({ id: Number(endpoint.id), events: endpoint.events })))
    return table.read(rows[0])
  }
  return {
    async insert(affiliate) {
      const values = { ...affiliate, ...affiliate.totals }
      // Inside a transaction a failed insert would abort it; the savepoint lets the core retry
      // a referral-code collision in the same transaction.
      return db.inTransaction ? db.transaction((inner) => table.insert(inner, values, affiliateTotalsFields)) : table.insert(db, values, affiliateTotalsFields)
    },
    get: (projectId, id) => find(projectId, 'id = $2', [id]),
    getByEmail: (projectId, email) => find(projectId, 'lower(email) = lower($2)', [email]),
    getByCode: (projectId, code) => find(projectId, 'lower(referral_code) = lower($2)', [code]),
    lockForUpdate: (projectId, id) => table.get(db, projectId, id, 'FOR UPDATE'),
    update(projectId, id, patch) {
      const { totals: _ignored, ...rest } = patch as typeof patch & { totals?: unknown }
      return table.update(db, projectId, id, rest)
    },
    async adjustTotals(projectId, id, delta: TotalsDelta) {
      const params: unknown[] = []
      const update = totalsUpdate(table.name, projectId, id, delta, params)
      if (update) await run(db, update.text(), params)
    },
    // Its conversions, coupons, clicks and payouts go and its referrals and sub-affiliates are
    // detached by the foreign keys of migration 2, in this one statement.
    delete: (projectId, id) => table.delete(db, projectId, id),
    list: (projectId, filter) => table.page(db, projectId, [['status = ANY(?::text[])', filter.statuses]], filter),
  }
}

export function referralRepository(db: SqlClient, t: Tables): ReferralRepository {
  const table = t.referrals
  return {
    insert: (referral) => table.insert(db, referral),
    get: (projectId, id) => table.get(db, projectId, id),
    getByEmail: (projectId, email) => table.findOne(db, 'project_id = $1 AND lower(email) = lower($2)', [projectId, email]),
    update: (projectId, id, patch) => table.update(db, projectId, id, patch),
    async markFirstPurchase(projectId, id, at) {
      // Decided by the row: an UPDATE waits for another transaction's, then checks the condition again.
      const rows = await run(
        db,
        `UPDATE ${table.name} SET first_purchase_at = $3, conversion_status = 'converted', conversion_date = $3
         WHERE project_id = $1 AND id = $2 AND first_purchase_at IS NULL RETURNING *`,
        [projectId, id, at],
      )
      return rows[0] ? table.read(rows[0]) : null
    },
    list: (projectId, filter) =>
      table.page(
        db,
        projectId,
        [
          ['affiliate_id = ?', filter.affiliateId],
          ['conversion_status = ?', filter.status],
        ],
        filter,
      ),
  }
}

export function couponRepository(db: SqlClient, t: Tables): CouponRepository {
  const table = t.coupons
  return {
    insert: (coupon) => table.insert(db, coupon),
    get: (projectId, id) => table.get(db, projectId, id),
    getByCode: (projectId, code) => table.findOne(db, 'project_id = $1 AND lower(code) = lower($2)', [projectId, code]),
    update: (projectId, id, patch) => table.update(db, projectId, id, patch),
    delete: (projectId, id) => table.delete(db, projectId, id),
    list: (projectId, filter) =>
      table.page(
        db,
        projectId,
        [
          ['affiliate_id = ?', filter.affiliateId],
          ['lower(code) = lower(?)', filter.code],
          ['status = ?', filter.status],
          ['processor_coupon_id = ?', filter.processorCouponId],
        ],
        filter,
      ),
  }
}

export function clickRepository(db: SqlClient, t: Tables): ClickRepository {
  return { insert: (click) => t.clicks.insert(db, click) }
}

export function payoutRepository(db: SqlClient, t: Tables): PayoutRepository {
  const table = t.payouts
  return {
    insert: (payout) => table.insert(db, payout),
    async setConversionsSettled(projectId, id, count) {
      await run(db, `UPDATE ${table.name} SET conversions_settled = $3 WHERE project_id = $1 AND id = $2`, [projectId, id, count])
    },
    get: (projectId, id) => table.get(db, projectId, id),
    list: (projectId, filter) => table.page(db, projectId, [['affiliate_id = ?', filter.affiliateId]], filter),
  }
}

export function webhookEndpointRepository(db: SqlClient, t: Tables, cache: TransactionState | null): WebhookEndpointRepository {
  const table = t.endpoints
  // Events recorded earlier in the transaction go to the endpoints as they were then.
  const change = async <T>(write: () => Promise<T>): Promise<T> => {
    await flushPending(db, t, cache)
    cache?.endpoints.clear()
    return write()
  }
  return {
    insert: (endpoint) => change(() => table.insert(db, endpoint)),
    get: (projectId, id) => table.get(db, projectId, id),
    async list(projectId) {
      const rows = await run(db, `SELECT * FROM ${table.name} WHERE project_id = $1 ORDER BY id`, [projectId])
      return rows.map((row) => table.read(row))
    },
    update: (projectId, id, patch) => change(() => table.update(db, projectId, id, patch)),
    // Its deliveries and their attempts go by the foreign keys of migration 2.
    delete: (projectId, id) => change(() => table.delete(db, projectId, id)),
  }
}
