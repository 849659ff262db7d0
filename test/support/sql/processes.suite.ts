// Several processes, each with its own pool, against one PostgreSQL schema: idempotency by the
// unique index, payouts that cannot overdraw, a process killed mid-transaction, and one killed
// while holding an Idempotency-Key. Run straight (postgres-processes.test.ts) and through
// PgBouncer (postgres-processes-pgbouncer.test.ts); the oracle reads over DATABASE_URL.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newConversion } from '../../../src/core/model/entities.js'
import type { Conversion, Insert } from '../../../src/storage.js'
import { createHandler } from '../../../src/http/index.js'
import { IDEMPOTENCY_LEASE_MS } from '../../../src/http/idempotency.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort } from '../../../src/index.js'
import { caller } from '../http/helpers.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON, routeConnection, type PostgresRoute } from './pg-schema.js'
import { runTogether, startChild } from './processes.js'

export function postgresProcessesSuite(route: PostgresRoute): void {
  const suite = DATABASE_URL ? describe : describe.skip

  suite(`postgres${route.title}: several processes at once${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
    let storage: StoragePort
    let schema: string
    let cleanup: () => Promise<void>
    let oracle: pg.Client
    let counter = 0

    beforeAll(async () => {
      ;({ storage, schema, cleanup } = freshPostgresStorage({}, route))
      oracle = new pg.Client({ connectionString: DATABASE_URL })
      await oracle.connect()
    })
    afterAll(async () => {
      await oracle?.end()
      await cleanup?.()
    })

    async function freshProgram(): Promise<{ program: AffiliateProgram; project: string; affiliateId: number }> {
      counter += 1
      const project = `multi-${counter}`
      const program = await createAffiliateProgram({ storage, project })
      const affiliate = await program.affiliates.create({ email: `aff${counter}@example.com` })
      return { program, project, affiliateId: affiliate.id }
    }

    it('4 processes sending 200 creates with one reference make exactly one conversion; every other answer is the duplicate', async () => {
      const { program, project, affiliateId } = await freshProgram()
      const children = Array.from({ length: 4 }, () => startChild('conversions', { connection: routeConnection(route), schema, project, affiliateId, count: 50 }))
      const results = (await runTogether<Array<{ duplicate?: boolean; error?: string; message?: string }>>(children)).flat()

      expect(results).toHaveLength(200)
      expect(results.filter((result) => result.error !== undefined)).toEqual([])
      expect(results.filter((result) => result.duplicate === false)).toHaveLength(1)
      expect(results.filter((result) => result.duplicate === true)).toHaveLength(199)
      const rows = await oracle.query(`SELECT count(*)::int AS n FROM "${schema}".conversions WHERE project_id = $1`, [program.projectId])
      expect(rows.rows[0].n).toBe(1)
      const referrals = await oracle.query(`SELECT count(*)::int AS n FROM "${schema}".referrals WHERE project_id = $1`, [program.projectId])
      expect(referrals.rows[0].n).toBe(1)
      expect(await program.affiliates.get(affiliateId)).toMatchObject({ purchases: 1, signups: 1, earnings: { total: '3.00', unpaid: '3.00' } })
    })

    it('20 concurrent payouts from 4 processes, each for the full unpaid balance: exactly one succeeds, nothing is overdrawn', async () => {
      const { program, project, affiliateId } = await freshProgram()
      for (let index = 0; index < 10; index += 1) {
        await program.conversions.create({ type: 'purchase', affiliateId, baseValue: '10.00', value: '7.00', reference: `ch_${index}` })
      }
      expect((await program.affiliates.get(affiliateId)).earnings.unpaid).toBe('70.00')

      const children = Array.from({ length: 4 }, () => startChild('payouts', { connection: routeConnection(route), schema, project, affiliateId, count: 5, amount: '70.00' }))
      const results = (await runTogether<Array<{ paid?: boolean; error?: string; message?: string }>>(children)).flat()

      expect(results).toHaveLength(20)
      expect(results.filter((result) => result.paid)).toHaveLength(1)
      const refused = results.filter((result) => !result.paid)
      expect(refused).toHaveLength(19)
      for (const result of refused) expect(result).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/unpaid earnings of 0\.00/) })

      const paid = await oracle.query(
        `SELECT coalesce(sum(amount_minor), 0)::text AS total, count(*)::int AS n FROM "${schema}".payouts WHERE project_id = $1`,
        [program.projectId],
      )
      expect(paid.rows[0]).toEqual({ total: '7000', n: 1 })
      const totals = await oracle.query(
        `SELECT counted_value_minor::text AS counted, paid_value_minor::text AS paid, credit_minor::text AS credit
         FROM "${schema}".affiliates WHERE id = $1`,
        [affiliateId],
      )
      expect(totals.rows[0]).toEqual({ counted: '7000', paid: '7000', credit: '0' })
      expect((await program.affiliates.get(affiliateId)).earnings).toMatchObject({ unpaid: '0.00', paid: '70.00' })
    })

    it('a process killed in the middle of a write transaction leaves no partial rows and no held locks', async () => {
      const { program, project, affiliateId } = await freshProgram()
      const child = startChild('crash', { connection: routeConnection(route), schema, project, affiliateId })
      await child.waitFor('ready')
      child.process.stdin!.write('go\n')
      await child.waitFor('mid-transaction')
      child.process.kill('SIGKILL')
      await child.result.catch(() => undefined)

      // The row the dead transaction updated is writable again (its lock died with the session)...
      const payoutAttempt = program.payouts.create({ affiliateId, amount: '0.01' }).catch((error: { code: string }) => error.code)
      expect(await payoutAttempt).toBe('invalid_request')
      // ...and none of its writes exist.
      const count = async (table: string) =>
        (await oracle.query(`SELECT count(*)::int AS n FROM "${schema}".${table} WHERE project_id = $1`, [program.projectId])).rows[0].n
      expect(await count('conversions')).toBe(0)
      expect(await count('referrals')).toBe(0)
      expect(await program.affiliates.get(affiliateId)).toMatchObject({ purchases: 0, earnings: { total: '0.00' } })
    })

    it.each([
      ['after its conversion committed, before storing its Idempotency-Key answer', 'answer-lost', 'committed', 200],
      ['inside its conversion transaction, before the commit', 'commit-lost', 'mid-transaction', 201],
    ] as const)('a process killed -9 %s: 409 during the lease, then the retry answers what was committed', async (_when, mode, signal, status) => {
      const { program, project, affiliateId } = await freshProgram()
      const { key } = await program.keys.create({ name: 'lease' })
      const child = startChild(mode, { connection: routeConnection(route), schema, project, affiliateId, apiKey: key })
      await child.waitFor('ready')
      child.process.stdin!.write('go\n')
      await child.waitFor(signal)
      child.process.kill('SIGKILL')
      await child.result.catch(() => undefined)

      // This process's clock: now, then past the dead claim's lease.
      const clock = testClock(new Date())
      const retrier = await createAffiliateProgram({ storage, clock, project })
      const call = caller(createHandler(retrier, { rateLimit: false, state: storage.keyedState }), key)
      const body = { type: 'purchase', affiliate_id: affiliateId, base_value: 49, reference: 'ch_lost' }
      const headers = { 'idempotency-key': 'charge-ch_lost' }
      expect((await call('POST', '/conversions', body, { headers })).status).toBe(409)
      clock.advance({ ms: IDEMPOTENCY_LEASE_MS + 1000 })
      const retry = await call('POST', '/conversions', body, { headers })
      expect(retry.status).toBe(status)
      expect(retry.body).toMatchObject({ data: { reference: 'ch_lost', value: 14.7 } })
      expect(retry.body.duplicate === true).toBe(status === 200)
      const rows = await oracle.query(`SELECT id::int AS id FROM "${schema}".conversions WHERE project_id = $1`, [program.projectId])
      expect(rows.rows).toEqual([{ id: retry.body.data.id }])
      expect((await call('POST', '/conversions', body, { headers })).headers.get('idempotent-replayed')).toBe('true')
    })

    it('concurrent changes of one conversion (several connections) apply to its latest state: no double refund', async () => {
      const { program, affiliateId } = await freshProgram()
      const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId, baseValue: '100.00', reference: 'ch_refund' })
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () =>
          program.conversions.update(conversion.id, { refundAmount: '10.00' }).then(
            () => 'ok',
            (error: { code?: string }) => error.code ?? 'crash',
          ),
        ),
      )
      expect(outcomes).toEqual(Array.from({ length: 10 }, () => 'ok'))
      // Ten refunds of 10.00 each refund the whole 100.00 (as one after another would), and the
      // commission leaves the ledger.
      expect(await program.conversions.get(conversion.id)).toMatchObject({ refundedBaseValue: '100.00', status: 'refunded' })
      const totals = await oracle.query(`SELECT counted_value_minor::text AS counted FROM "${schema}".affiliates WHERE id = $1`, [affiliateId])
      expect(totals.rows[0]).toEqual({ counted: '0' })
    })

    it('payouts racing conversion changes of the same affiliate neither deadlock nor lose money', async () => {
      const { program, affiliateId } = await freshProgram()
      const ids: number[] = []
      for (let index = 0; index < 12; index += 1) {
        const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId, baseValue: '10.00', value: '5.00', reference: `ch_mix_${index}` })
        ids.push(conversion.id)
      }
      const work = ids.flatMap((id, index) => [
        program.conversions.update(id, { status: 'rejected' }).then(() => 'ok', (error: { code?: string }) => error.code ?? 'crash'),
        program.payouts.create({ affiliateId, amount: '5.00' }).then(() => 'ok', (error: { code?: string }) => error.code ?? 'crash'),
        ...(index % 3 === 0 ? [program.conversions.delete(id).then(() => 'ok', (error: { code?: string }) => error.code ?? 'crash')] : []),
      ])
      const outcomes = await Promise.all(work)
      expect(outcomes.filter((outcome) => !['ok', 'invalid_request', 'not_found', 'conflict'].includes(outcome))).toEqual([])
      // The running totals still equal what the rows say.
      const check = await oracle.query(
        `SELECT a.counted_value_minor::text AS counted, a.paid_value_minor::text AS paid,
           (SELECT coalesce(sum(value_minor), 0)::text FROM "${schema}".conversions c WHERE c.affiliate_id = a.id AND c.status = 'active') AS rows_counted,
           (SELECT coalesce(sum(value_minor), 0)::text FROM "${schema}".conversions c WHERE c.affiliate_id = a.id AND c.status = 'active' AND c.paid) AS rows_paid
         FROM "${schema}".affiliates a WHERE a.id = $1`,
        [affiliateId],
      )
      const row = check.rows[0]
      expect(row.counted).toBe(row.rows_counted)
      expect(row.paid).toBe(row.rows_paid)
    })

    it('deleting an affiliate while another connection writes a conversion for it leaves no orphan row', async () => {
      const { program, affiliateId } = await freshProgram()
      const projectId = program.projectId
      let inserted!: () => void
      let commit!: () => void
      const insertedSignal = new Promise<void>((resolve) => (inserted = resolve))
      const commitSignal = new Promise<void>((resolve) => (commit = resolve))
      const writer = storage.transaction(async (tx) => {
        const now = new Date()
        await tx.conversions.insert(newConversion<Insert<Conversion>>({
          projectId, affiliateId, referredUserId: null, customerEmail: null, type: 'purchase', value: 300n, baseValue: 1000n,
          baseCurrency: 'USD', refundedBaseValue: 0n, paid: false, paidByPayoutId: null, status: 'active', holdUntil: now,
          reference: 'ch_orphan', fingerprint: null, couponCodeUsed: null, basis: 'purchase', commissionType: 'percentage',
          commissionRate: '30', tier: 1, parentConversionId: null, refundReason: null, productId: null, ruleSource: null, commissionAmount: null, reviewReason: null, clickVisitor: null, cardFingerprint: null, createdAt: now,
        }))
        inserted()
        await commitSignal
      })
      await insertedSignal
      const deletion = storage.affiliates.delete(projectId, affiliateId)
      // Give the deletion time to reach the affiliate row before the writer commits.
      await new Promise((resolve) => setTimeout(resolve, 300))
      commit()
      await writer
      expect(await deletion).toBe(true)
      const orphans = await oracle.query(`SELECT count(*)::int AS n FROM "${schema}".conversions WHERE project_id = $1`, [projectId])
      expect(orphans.rows[0].n).toBe(0)
    })
  })
}
