// Several processes, each with its own pool, against one PostgreSQL schema: idempotency by the
// unique index, payouts that cannot overdraw, and a process killed mid-transaction.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, type AffiliateProgram, type StoragePort } from '../src/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from './sql/pg-schema.js'
import { runTogether, startChild } from './sql/processes.js'

const suite = DATABASE_URL ? describe : describe.skip

suite(`postgres: several processes at once${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let storage: StoragePort
  let schema: string
  let cleanup: () => Promise<void>
  let oracle: pg.Client
  let counter = 0

  beforeAll(async () => {
    ;({ storage, schema, cleanup } = freshPostgresStorage())
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
    const children = Array.from({ length: 4 }, () => startChild('conversions', { schema, project, affiliateId, count: 50 }))
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

    const children = Array.from({ length: 4 }, () => startChild('payouts', { schema, project, affiliateId, count: 5, amount: '70.00' }))
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
    const child = startChild('crash', { schema, project, affiliateId })
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
})
