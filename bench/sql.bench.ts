// SQL storage (the built dist/; `npm run build` first): conversion creates/s on PGlite and
// PostgreSQL next to a raw-SQL baseline doing the same writes without the library (the conversion, its counters, its ledger movement); GET-affiliate
// latency at 1,000,000 vs 1,000 conversions; one payout settling 100,000 conversions.
// Needs DATABASE_URL for the PostgreSQL figures. Bulk setup rows are made by generate_series.
import { PGlite } from '@electric-sql/pglite'
import { readdirSync, readFileSync } from 'node:fs'
import pg from 'pg'
import { pgliteStorage } from '../dist/adapters/pglite.js'
import { postgresStorage } from '../dist/adapters/postgres.js'
import { createAffiliateProgram, type AffiliateProgram, type StoragePort } from '../dist/index.js'
import { countRoundTrips, type RoundTrips } from './round-trips.js'

const DATABASE_URL = process.env.DATABASE_URL
/** SQL_BENCH_PARTS=creates,stats,payout picks parts. @default all three */
const parts = new Set((process.env.SQL_BENCH_PARTS ?? 'creates,stats,payout').split(','))
const fmt = (value: number) => Math.round(value).toLocaleString('en')
type Raw = (text: string, params?: unknown[]) => Promise<unknown>

/**
 * What the library writes for a create, hand-written in one statement: the conversion, the
 * affiliate's totals, the day's counters of the affiliate and of its project shard (row -1 - id % 16,
 * adapters/sql/repositories/day-counters.ts; the library writes that row last, before COMMIT) and the ledger movement. $1 project, $2 affiliate, $3 reference.
 */
const CREATE_WRITES = (schema: string) => `WITH inserted AS (
    INSERT INTO ${schema}.conversions
      (project_id, affiliate_id, customer_email, type, value_minor, base_value_minor, base_currency, refunded_base_value_minor,
       paid, status, hold_until, reference, fingerprint, basis, commission_type, commission_rate, tier, created_at)
    VALUES ($1, $2, NULL, 'purchase', 600, 1999, 'USD', 0, false, 'active', now(), $3, 'fp', 'purchase', 'percentage', '30', 1, now())
    RETURNING id),
  totals AS (UPDATE ${schema}.affiliates SET counted_value_minor = counted_value_minor + 600, purchases = purchases + 1 WHERE project_id = $1 AND id = $2),
  daily AS (INSERT INTO ${schema}.tracking_daily (project_id, affiliate_id, day, purchases, revenue_minor, commission_minor)
    VALUES ($1, $2, current_date, 1, 1999, 600), ($1, -1 - ($2 % 16), current_date, 1, 1999, 600)
    ON CONFLICT (project_id, affiliate_id, day) DO UPDATE SET purchases = ${schema}.tracking_daily.purchases + 1,
      revenue_minor = ${schema}.tracking_daily.revenue_minor + 1999, commission_minor = ${schema}.tracking_daily.commission_minor + 600)
  INSERT INTO ${schema}.ledger_movements (project_id, created_at, affiliate_id, type, conversion_id, hold_until, counted_value_minor, paid_value_minor, credit_minor)
  SELECT $1, now(), $2, 'commission', inserted.id, now(), 600, 0, 0 FROM inserted`

/** CPU microseconds used so far by this process and, for PostgreSQL, by the server's processes (read from /proc). */
function cpuNow(label: string): { self: number; server: number } {
  const usage = process.cpuUsage()
  return { self: usage.user + usage.system, server: label === 'PostgreSQL' ? postgresServerCpu() : 0 }
}

/** Linux clock ticks are 1/100 s; the sum covers every postgres process (backends, walwriter, checkpointer). */
function postgresServerCpu(): number {
  let ticks = 0
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (!stat.includes('(postgres)')) continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // the process ended between the listing and the read
    }
  }
  return ticks * 10_000
}

/** Runs `count` jobs with `workers` in flight; returns jobs per second. */
async function throughput(count: number, workers: number, job: (index: number) => Promise<unknown>): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count) await job(next++)
    }),
  )
  return count / ((performance.now() - started) / 1000)
}


async function creates(label: string, storage: StoragePort, raw: { tx: (fn: (q: Raw) => Promise<void>) => Promise<void> }, schema: string, count: number, workers: number, roundTrips?: RoundTrips) {
  const program = await createAffiliateProgram({ storage, project: `bench-creates-${Date.now()}` })
  const affiliates: number[] = []
  for (let index = 0; index < 20; index += 1) affiliates.push((await program.affiliates.create({ email: `c${index}@example.com` })).id)
  const tag = Date.now()
  // Warm-up, then short alternating rounds of baseline and library (machine noise hits both
  // alike); the medians are reported.
  await throughput(100, workers, (index) => program.conversions.create({ type: 'purchase', affiliateId: affiliates[index % 20]!, baseValue: '19.99', reference: `w_${tag}_${index}` }))
  const baselines: number[] = []
  const libraries: number[] = []
  const rounds = 6
  const perRound = count / rounds
  const cpu = { raw: { self: 0, server: 0 }, library: { self: 0, server: 0 } }
  const timed = async (side: 'raw' | 'library', run: () => Promise<number>) => {
    const before = cpuNow(label)
    const rate = await run()
    const after = cpuNow(label)
    cpu[side].self += after.self - before.self
    cpu[side].server += after.server - before.server
    return rate
  }
  for (let round = 0; round < rounds; round += 1) {
    baselines.push(await timed('raw', () => throughput(perRound, workers, (index) =>
      raw.tx((q) => q(CREATE_WRITES(schema), [program.projectId, affiliates[index % 20]!, `raw_${tag}_${round}_${index}`]).then(() => undefined)),
    )))
    libraries.push(await timed('library', () => throughput(perRound, workers, (index) =>
      program.conversions.create({ type: 'purchase', affiliateId: affiliates[index % 20]!, baseValue: '19.99', reference: `lib_${tag}_${round}_${index}` }),
    )))
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const baseline = median(baselines)
  const library = median(libraries)
  console.log(`${label} conversion creates (${workers} in flight): ${fmt(library)}/s`)
  console.log(`  baseline, the same writes in raw SQL (the conversion, the affiliate's totals, the day's two counter rows and the ledger movement: one statement in one transaction): ${fmt(baseline)}/s; ratio ${(library / baseline).toFixed(2)} (target >= 0.85)`)
  const perCreate = (micros: number) => `${fmt(micros / count)} µs`
  const server = label === 'PostgreSQL' ? `; PostgreSQL server ${perCreate(cpu.library.server)} vs ${perCreate(cpu.raw.server)}` : ''
  console.log(`  CPU per create, library vs baseline: this process ${perCreate(cpu.library.self)} vs ${perCreate(cpu.raw.self)}${server}`)
  if (roundTrips) {
    const before = roundTrips.count
    await program.conversions.create({ type: 'purchase', affiliateId: affiliates[0]!, baseValue: '19.99', reference: `rt_${tag}` })
    console.log(`  round trips per create: ${roundTrips.count - before} (BEGIN and COMMIT included; the baseline makes 3)`)
  }
}

/** An affiliate with `count` conversions (the newest `held` still in their hold period, 10% paid), totals set to match. */
async function bulkAffiliate(program: AffiliateProgram, raw: Raw, schema: string, count: number, email: string, held = 100) {
  const affiliate = await program.affiliates.create({ email })
  await raw(
    `INSERT INTO ${schema}.conversions (project_id, affiliate_id, type, value_minor, base_value_minor, base_currency, paid, status,
       hold_until, reference, basis, commission_type, commission_rate, tier, created_at)
     SELECT $1, $2, 'purchase', 600, 1999, 'USD', i % 10 = 0, 'active',
       CASE WHEN i > $4::int - $5::int THEN now() + interval '20 days' ELSE now() - interval '1 day' END,
       $3 || i, 'purchase', 'percentage', '30', 1, now() - interval '40 days' + i * interval '1 millisecond'
     FROM generate_series(1, $4::int) AS i`,
    [program.projectId, affiliate.id, `${email}:`, count, held],
  )
  await raw(
    `UPDATE ${schema}.affiliates SET counted_value_minor = $3::numeric * 600, paid_value_minor = ($3::numeric / 10) * 600, purchases = $3
     WHERE project_id = $1 AND id = $2`,
    [program.projectId, affiliate.id, count],
  )
  return affiliate.id
}

/** Setup only: drops the conversions indexes (but the primary key) and triggers during a bulk load, then rebuilds them. */
async function withoutSecondaryIndexes<T>(raw: Raw, schema: string, load: () => Promise<T>): Promise<T> {
  const result = (await raw(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'conversions' AND indexname <> 'conversions_pkey'`,
    [schema.replaceAll('"', '')],
  )) as { rows: Array<{ indexname: string; indexdef: string }> }
  for (const index of result.rows) await raw(`DROP INDEX ${schema}.${index.indexname}`)
  // The rows are valid (their affiliate exists): skip the per-row foreign-key checks too.
  await raw(`ALTER TABLE ${schema}.conversions DISABLE TRIGGER ALL`)
  const value = await load()
  await raw(`ALTER TABLE ${schema}.conversions ENABLE TRIGGER ALL`)
  for (const index of result.rows) await raw(index.indexdef)
  return value
}

async function medianMs(times: number, job: () => Promise<unknown>): Promise<number> {
  const samples: number[] = []
  for (let index = 0; index < times; index += 1) {
    const started = performance.now()
    await job()
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]!
}

async function affiliateLatency(label: string, storage: StoragePort, raw: Raw, schema: string, big: number) {
  const program = await createAffiliateProgram({ storage, project: `bench-stats-${Date.now()}` })
  const started = performance.now()
  const small = await bulkAffiliate(program, raw, schema, 1_000, 'small@example.com')
  const large = await withoutSecondaryIndexes(raw, schema, () => bulkAffiliate(program, raw, schema, big, 'large@example.com'))
  await raw(`VACUUM ANALYZE ${schema}.conversions`)
  console.log(`${label} setup: ${fmt(big + 1_000)} conversions bulk-inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  await medianMs(20, () => program.affiliates.get(large))
  const smallMs = await medianMs(200, () => program.affiliates.get(small))
  const largeMs = await medianMs(200, () => program.affiliates.get(large))
  const view = await program.affiliates.get(large)
  console.log(`${label} GET affiliate with stats: ${largeMs.toFixed(2)} ms median at ${fmt(big)} conversions`)
  console.log(`  baseline, the same at 1,000 conversions: ${smallMs.toFixed(2)} ms; ratio ${(largeMs / smallMs).toFixed(2)} (target <= 2); both have 100 conversions inside the hold period (held ${view.earnings.held})`)

}

async function payoutSettling(label: string, storage: StoragePort, raw: Raw, schema: string) {
  const program = await createAffiliateProgram({ storage, project: `bench-payout-${Date.now()}` })
  const id = await withoutSecondaryIndexes(raw, schema, () => bulkAffiliate(program, raw, schema, 111_112, 'payee@example.com', 0))
  await raw(`UPDATE ${schema}.conversions SET paid = false, hold_until = now() - interval '1 day' WHERE project_id = $1 AND affiliate_id = $2`, [program.projectId, id])
  await raw(`UPDATE ${schema}.affiliates SET paid_value_minor = 0 WHERE project_id = $1 AND id = $2`, [program.projectId, id])
  await raw(`VACUUM ANALYZE ${schema}.conversions`)
  // Pay exactly the oldest 100,000 conversions.
  const started = performance.now()
  const payout = await program.payouts.create({ affiliateId: id, amount: '600000.00' })
  const seconds = (performance.now() - started) / 1000
  // Baseline: the same rows marked paid again by one raw UPDATE, after being set back unpaid.
  const sameRows = `project_id = $1 AND affiliate_id = $2 AND paid_by_payout_id = $3`
  await raw(`UPDATE ${schema}.conversions SET paid = false WHERE ${sameRows}`, [program.projectId, id, payout.id])
  await raw(`VACUUM ANALYZE ${schema}.conversions`)
  const rawStarted = performance.now()
  await raw(`UPDATE ${schema}.conversions SET paid = true WHERE ${sameRows}`, [program.projectId, id, payout.id])
  const rawSeconds = (performance.now() - rawStarted) / 1000
  console.log(`${label} one payout settling ${fmt(payout.conversionsSettled)} conversions: ${seconds.toFixed(2)} s`)
  console.log(`  baseline, one raw UPDATE marking the same rows paid: ${rawSeconds.toFixed(2)} s; ${(seconds / rawSeconds).toFixed(2)}x (target <= 2x)`)
}

// PGlite.
{
  const db = new PGlite()
  const storage = pgliteStorage({ db })
  const raw: Raw = (text, params) => db.query(text, params)
  await createAffiliateProgram({ storage, project: 'warm' })
  if (parts.has('creates')) await creates('PGlite', storage, { tx: (fn) => db.transaction((tx) => fn((text, params) => tx.query(text, params))) }, 'affiliate_kit', 3_000, 1)
  if (parts.has('stats')) await affiliateLatency('PGlite', storage, raw, 'affiliate_kit', 1_000_000)
  if (parts.has('payout')) await payoutSettling('PGlite', storage, raw, 'affiliate_kit')
  await storage.close()
  await db.close()
}

// PostgreSQL.
if (!DATABASE_URL) {
  console.log('PostgreSQL: skipped (DATABASE_URL is not set)')
} else {
  const schema = `affiliate_kit_bench_${process.pid}`
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 8 })
  const roundTrips = countRoundTrips()
  const storage = postgresStorage({ pool, schema })
  const raw: Raw = (text, params) => pool.query(text, params)
  const tx = async (fn: (q: Raw) => Promise<void>) => {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      await fn((text, params) => client.query(text, params))
      await client.query('COMMIT')
    } finally {
      client.release()
    }
  }
  try {
    await createAffiliateProgram({ storage, project: 'warm' })
    if (parts.has('creates')) await creates('PostgreSQL', storage, { tx }, `"${schema}"`, 6_000, 8, roundTrips)
    if (parts.has('stats')) await affiliateLatency('PostgreSQL', storage, raw, `"${schema}"`, 1_000_000)
    if (parts.has('payout')) await payoutSettling('PostgreSQL', storage, raw, `"${schema}"`)
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await storage.close()
    await pool.end()
  }
}
