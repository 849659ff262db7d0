// What only the SQL adapters have: migrations (idempotent, concurrent starts), their own schema,
// host-supplied connections, persistence in dataDir, crash safety, and outbox claims that
// concurrent connections never share.
import { PGlite } from '@electric-sql/pglite'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { migrate, MIGRATIONS } from '../../../src/adapters/sql/migrations.js'
import { nestedClient, type SqlExecutor } from '../../../src/adapters/sql/executor.js'
import { affiliateTotalsColumns, createTables } from '../../../src/adapters/sql/tables.js'
import { SqlTable } from '../../../src/adapters/sql/table.js'
import { createAffiliateProgram, testClock } from '../../../src/index.js'
import { stripeHandler } from '../../../src/providers/stripe/index.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../../support/providers/scenario.js'
import { customerCreated, legacyChargeRefunded, legacyInvoicePaid } from '../../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../../support/providers/stripe-scenario.js'
import { migratedDataDir } from '../../support/pglite-template.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { startChild } from '../../support/sql/processes.js'

describe('pglite adapter', () => {
  // The tests after the first two (a fresh database, its migrations) start from a migrated copy.
  const dirs: string[] = []
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'affiliate-kit-pglite-'))
    dirs.push(dir)
    return dir
  }
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('persists in dataDir across close and reopen, migrating only once', async () => {
    const dataDir = await tempDir()
    const first = pgliteStorage({ dataDir })
    const program = await createAffiliateProgram({ storage: first, project: 'persisted' })
    const affiliate = await program.affiliates.create({ email: 'kept@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '19.99' })
    await first.close()

    const db = new PGlite(dataDir)
    const second = pgliteStorage({ db, schema: 'affiliate_kit' })
    const reopened = await createAffiliateProgram({ storage: second, project: 'persisted' })
    expect(await reopened.affiliates.get('kept@example.com')).toMatchObject({ id: affiliate.id, earnings: { total: '6.00' } })
    await second.close()
    // The host's instance stays open after close(), and holds our tables in their own schema.
    const versions = await db.query<{ version: number }>('SELECT version FROM affiliate_kit.schema_migrations ORDER BY version')
    expect(versions.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version))
    await db.close()
  })

  it('confirms an up-to-date schema with one read: no lock, no DDL', async () => {
    const db = new PGlite()
    const statements: string[] = []
    const run = async (query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>, text: string, params?: readonly unknown[]) => {
      statements.push(text)
      return (await query(text, params ? [...params] : undefined)).rows as never
    }
    const executor: SqlExecutor = {
      inTransaction: false,
      query: (text, params) => run((t, p) => db.query(t, p), text, params),
      transaction: (fn) => db.transaction((tx) => fn(nestedClient((text, params) => run((t, p) => tx.query(t, p), text, params)))),
      close: () => db.close(),
    }
    expect(await migrate(executor, 'affiliate_kit')).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })))
    statements.length = 0
    expect(await migrate(executor, 'affiliate_kit')).toEqual([])
    expect(statements).toEqual(['SELECT version FROM "affiliate_kit".schema_migrations'])
    await db.close()
  })

  it("names every entity's columns as the migrations made them: each field has its column, each column its field", async () => {
    const db = new PGlite(migratedDataDir(await tempDir()))
    const storage = pgliteStorage({ db })
    await storage.ping()
    const { rows } = await db.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'affiliate_kit'",
    )
    const tables = createTables('"affiliate_kit"')
    for (const table of Object.values(tables).filter((value) => value instanceof SqlTable)) {
      const name = table.name.replace('"affiliate_kit".', '')
      const columns = Object.values(name === 'affiliates' ? { ...table.columns, ...affiliateTotalsColumns } : table.columns).map(({ column }) => column)
      const stored = rows.filter((row) => row.table_name === name).map((row) => row.column_name)
      expect(columns.sort(), name).toEqual(stored.sort())
    }
    await storage.close()
    await db.close()
  })

  it('migration 4 gives coupons of an existing database the status active', async () => {
    const db = new PGlite(migratedDataDir(await tempDir()))
    const program = await createAffiliateProgram({ storage: pgliteStorage({ db }), project: 'legacy' })
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    // Back to the schema before version 4, with a coupon written by that version.
    await db.exec(`ALTER TABLE affiliate_kit.coupons DROP COLUMN status; DELETE FROM affiliate_kit.schema_migrations WHERE version = 4`)
    await db.query(`INSERT INTO affiliate_kit.coupons (project_id, affiliate_id, code, created_at) VALUES ($1, $2, 'OLD10', now())`, [program.projectId, ann.id])
    const reopened = await createAffiliateProgram({ storage: pgliteStorage({ db }), project: 'legacy' })
    expect((await reopened.coupons.list()).items).toMatchObject([{ code: 'OLD10', status: 'active' }])
    const { attribution } = await reopened.conversions.create({ type: 'purchase', couponCodeUsed: 'OLD10', baseValue: 10 })
    expect(attribution).toEqual({ affiliateId: ann.id, matchedBy: 'coupon' })
    await db.close()
  })

  it("migration 30 moves a grandfathered customer's first-purchase rules beside the referral: its renewal still earns them", async () => {
    const db = new PGlite(migratedDataDir(await tempDir()))
    const settings = (rate: number) => ({ commission: { purchase: { type: 'percentage' as const, rate }, recurring: { rate: rate / 2 }, grandfather: true } })
    const program = await createAffiliateProgram({ storage: pgliteStorage({ db }), project: 'terms', settings: settings(30) })
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const charge = (on: typeof program) => on.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'old@example.com', baseValue: '100.00' })
    expect((await charge(program)).conversion.value).toBe('30.00')
    // Back to the schema before version 30: the rules in the referral's own column.
    await db.exec(`ALTER TABLE affiliate_kit.referrals ADD COLUMN commission_terms jsonb;
      UPDATE affiliate_kit.referrals r SET commission_terms = t.terms FROM affiliate_kit.referral_terms t WHERE t.referral_id = r.id;
      DROP TABLE affiliate_kit.referral_terms; DELETE FROM affiliate_kit.schema_migrations WHERE version = 30`)
    const reopened = await createAffiliateProgram({ storage: pgliteStorage({ db }), project: 'terms', settings: settings(20) })
    await reopened.projects.updateSettings(reopened.projectId, settings(20))
    expect((await charge(reopened)).conversion.value).toBe('15.00')
    expect((await db.query('SELECT count(*)::int AS n FROM affiliate_kit.referral_terms')).rows).toEqual([{ n: 1 }])
    await db.close()
  })

  it('migration 10 flags the keys events of an existing database wait for: the payment arriving after the upgrade applies its waiting refund', async () => {
    const db = new PGlite(migratedDataDir(await tempDir()))
    const clock = testClock('2026-02-01T00:00:00Z')
    const program = await createAffiliateProgram({ storage: pgliteStorage({ db }), clock, project: 'legacy-waiting', settings: SCENARIO_SETTINGS })
    await scenarioAffiliates(program, 'BOB20')
    await program.referrals.create({ email: 'hal@example.com', referralCode: 'ANN' })
    const hal = { customer: 'cus_Hal', email: 'hal@example.com' }
    const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })
    const before = stripeHandler({ program, storage: pgliteStorage({ db }), webhookSecret: STRIPE_SECRET })
    expect(await (await deliverStripe(before, refund, clock)).json()).toMatchObject({ status: 'waiting' })
    // Back to the schema before version 10, with the refund saved waiting by that version: no
    // woken link flags the key it waits for.
    await db.exec(`DELETE FROM affiliate_kit.provider_links WHERE kind = 'woken'; DELETE FROM affiliate_kit.schema_migrations WHERE version = 10`)

    const storage = pgliteStorage({ db })
    const reopened = await createAffiliateProgram({ storage, clock, project: 'legacy-waiting' })
    const handler = stripeHandler({ program: reopened, storage, webhookSecret: STRIPE_SECRET })
    const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' })
    expect(await (await deliverStripe(handler, invoice, clock)).json()).toMatchObject({ status: 'applied' })
    expect((await reopened.providerEvents.list()).items.map((e) => [e.type, e.status]).sort()).toEqual([
      ['charge.refunded', 'applied'],
      ['invoice.paid', 'applied'],
    ])
    expect((await reopened.conversions.list()).items.map((c) => [c.reference, c.status])).toEqual([['in_Hal1', 'refunded']])
    await db.close()
  })

  it('migration 11 dates the marks an earlier version wrote: a refund its payment woke but never applied is applied by the sweep after the upgrade', async () => {
    const db = new PGlite(migratedDataDir(await tempDir()))
    // The database stamps the marks with its own time: the program's clock starts at it.
    const clock = testClock(new Date())
    const storage = pgliteStorage({ db })
    const program = await createAffiliateProgram({ storage, clock, project: 'legacy-marks', settings: SCENARIO_SETTINGS })
    await scenarioAffiliates(program, 'BOB20')
    await program.referrals.create({ email: 'hal@example.com', referralCode: 'ANN' })
    const hal = { customer: 'cus_Hal', email: 'hal@example.com' }
    const refund = legacyChargeRefunded({ at: '2026-01-31T11:00:00Z', id: 'ch_Hal1', ...hal, paymentIntent: 'pi_Hal1', invoice: 'in_Hal1', amount: 5000, refundedSoFar: 5000 })
    expect(await (await deliverStripe(stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET }), refund, clock)).json()).toMatchObject({ status: 'waiting' })
    // The payment commits, and its read of the events it woke fails (a lost connection): the
    // refund stays waiting. Its mark is then as the earlier version wrote it, with no time.
    const lostRead = new Proxy(storage, {
      get: (target, property, receiver) =>
        property === 'providerEvents'
          ? { ...target.providerEvents, all: () => Promise.reject(new Error('connection lost')) }
          : (Reflect.get(target, property, receiver) as unknown),
    })
    const invoice = legacyInvoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Hal1', ...hal, subtotal: 5000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Hal1', charge: 'ch_Hal1' })
    const lostProgram = await createAffiliateProgram({ storage: lostRead, clock, project: 'legacy-marks' })
    expect((await deliverStripe(stripeHandler({ program: lostProgram, webhookSecret: STRIPE_SECRET }), invoice, clock)).status).toBe(500)
    await db.exec(`UPDATE affiliate_kit.provider_links SET data = data - 'at' WHERE kind = 'woken'; DELETE FROM affiliate_kit.schema_migrations WHERE version = 11`)

    const upgraded = pgliteStorage({ db })
    const reopened = await createAffiliateProgram({ storage: upgraded, clock, project: 'legacy-marks' })
    const handler = stripeHandler({ program: reopened, storage: upgraded, webhookSecret: STRIPE_SECRET })
    clock.advance({ minutes: 10 })
    expect(await (await deliverStripe(handler, customerCreated({ at: '2026-01-31T12:00:00Z', customer: 'cus_Ivy', email: 'ivy@example.com' }), clock)).json()).toMatchObject({ status: 'applied' })
    expect((await reopened.providerEvents.list()).items.find((e) => e.type === 'charge.refunded')?.status).toBe('applied')
    expect((await reopened.conversions.list()).items.map((c) => [c.reference, c.status])).toEqual([['in_Hal1', 'refunded']])
    await db.close()
  })

  it('uses the configured schema beside the host tables, and rejects unsafe schema names', async () => {
    const db = new PGlite(migratedDataDir(await tempDir()))
    await db.query('CREATE TABLE public.affiliates (id int)')
    const storage = pgliteStorage({ db, schema: 'referral_program' })
    const program = await createAffiliateProgram({ storage })
    await program.affiliates.create({ email: 'beside@example.com' })
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM referral_program.affiliates')).rows[0]!.n).toBe(1)
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.affiliates')).rows[0]!.n).toBe(0)
    expect(() => pgliteStorage({ db, schema: 'x"; DROP TABLE y; --' })).toThrow(/invalid schema name/)
    await db.close()
  })

  it('leaves no partial rows when the process dies in the middle of a write transaction', async () => {
    const dataDir = migratedDataDir(await tempDir())
    const setup = pgliteStorage({ dataDir })
    const program = await createAffiliateProgram({ storage: setup, project: 'crash' })
    const affiliate = await program.affiliates.create({ email: 'crash-aff@example.com' })
    await setup.close()

    const child = startChild('crash', { dataDir, project: 'crash', affiliateId: affiliate.id })
    await child.waitFor('ready')
    child.process.stdin!.write('go\n')
    await child.waitFor('mid-transaction')
    child.process.kill('SIGKILL')
    await child.result.catch(() => undefined)

    const storage = pgliteStorage({ dataDir })
    const after = await createAffiliateProgram({ storage, project: 'crash' })
    expect(await after.affiliates.get(affiliate.id)).toMatchObject({ purchases: 0, earnings: { total: '0.00' } })
    expect((await after.conversions.list()).total).toBe(0)
    expect((await after.referrals.list()).total).toBe(0)
    // Still writable after recovery.
    await after.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '10.00', reference: 'ch_crash' })
    expect((await after.conversions.list()).total).toBe(1)
    await storage.close()
  }, 120_000)
})

const suite = DATABASE_URL ? describe : describe.skip
suite(`postgres adapter${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const schemas: string[] = []
  const schemaName = () => {
    const schema = freshSchemaName('affiliate_kit_adapter')
    schemas.push(schema)
    return schema
  }
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema)
  })

  it('applies migrations once when several storages start at once, and is a no-op afterwards', async () => {
    const schema = schemaName()
    const storages = Array.from({ length: 6 }, () => postgresStorage({ connectionString: DATABASE_URL!, schema, max: 2 }))
    const programs = await Promise.all(storages.map((storage, index) => createAffiliateProgram({ storage, project: `start-${index}` })))
    expect(programs).toHaveLength(6)
    const again = postgresStorage({ connectionString: DATABASE_URL!, schema })
    await createAffiliateProgram({ storage: again, project: 'start-0' })
    const pool = new pg.Pool({ connectionString: DATABASE_URL })
    const applied = await pool.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)
    expect(applied.rows.map((row: { version: number }) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version))
    for (const storage of [...storages, again]) await storage.close()
    await pool.end()
  })

  it("runs on the host's pool, beside another schema on the same connection, and leaves the pool open on close()", async () => {
    const schemas = [schemaName(), schemaName(), schemaName()]
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 })
    const storages = [
      postgresStorage({ pool, schema: schemas[0]! }),
      postgresStorage({ pool, schema: schemas[1]! }),
      postgresStorage({ pool, schema: schemas[2]!, preparedStatements: false }),
    ]
    for (const storage of storages) {
      const program = await createAffiliateProgram({ storage })
      const affiliate = await program.affiliates.create({ email: 'pooled@example.com' })
      await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '10.00', reference: 'ch_1' })
      expect(await program.affiliates.get('pooled@example.com')).toMatchObject({ earnings: { total: '3.00' } })
      await storage.close()
    }
    for (const schema of schemas) {
      const rows = await pool.query(`SELECT email FROM "${schema}".affiliates`)
      expect(rows.rows).toEqual([{ email: 'pooled@example.com' }])
    }
    await pool.end()
  })

  it('a transaction whose deferred statement fails (written with COMMIT) keeps nothing, and hands the client back as it was lent', async () => {
    const schema = schemaName()
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 })
    const storage = postgresStorage({ pool, schema })
    const program = await createAffiliateProgram({ storage })
    const affiliate = await program.affiliates.create({ email: 'deferred@example.com' })
    await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted', 'referral_updated'] })
    // The conversion's own statements succeed; the outbox rows, written just before COMMIT, cannot be.
    await pool.query(`ALTER TABLE "${schema}".webhook_events ADD CONSTRAINT test_no_events CHECK (false) NOT VALID`)
    await expect(program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '10.00', reference: 'ch_deferred' })).rejects.toMatchObject({ code: '23514' })
    expect((await program.conversions.list()).total).toBe(0)
    expect(await program.affiliates.get('deferred@example.com')).toMatchObject({ purchases: 0, earnings: { total: '0.00' } })
    const lent = await pool.connect()
    expect((lent as unknown as { pipeline: boolean }).pipeline).toBe(false)
    lent.release()
    await pool.query(`ALTER TABLE "${schema}".webhook_events DROP CONSTRAINT test_no_events`)
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '10.00', reference: 'ch_deferred' })
    expect(await program.affiliates.get('deferred@example.com')).toMatchObject({ purchases: 1, earnings: { total: '3.00' } })
    await storage.close()
    await pool.end()
  })

  it('never hands one delivery to two concurrent claimers (FOR UPDATE SKIP LOCKED)', async () => {
    const schema = schemaName()
    const a = postgresStorage({ connectionString: DATABASE_URL!, schema, max: 4 })
    const b = postgresStorage({ connectionString: DATABASE_URL!, schema, max: 4 })
    const program = await createAffiliateProgram({ storage: a, project: 'outbox' })
    await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['payout.created'] })
    const now = new Date()
    for (let index = 0; index < 60; index += 1) {
      await a.outbox.enqueue({ projectId: program.projectId, type: 'payout.created', payload: { n: index }, createdAt: new Date(now.getTime() - 1000) })
    }
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, index) => (index % 2 ? a : b).outbox.claim({ now, limit: 10, leaseMs: 60_000 })),
    )
    const ids = claims.flat().map((item) => item.delivery.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBe(60)
    await a.close()
    await b.close()
  })
})
