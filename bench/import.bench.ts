// The importer (the built dist/; `npm run build` first) writing a Rewardful-like program into
// PostgreSQL: records per second next to a raw multi-row INSERT of the same rows (affiliates, then
// their commissions as conversions) in the same run. Needs DATABASE_URL. Target: importer / raw >= 0.3.
// IMPORT_BENCH_AFFILIATES and IMPORT_BENCH_COMMISSIONS set the size. @default 10,000 and 100,000
import pg from 'pg'
import { postgresStorage } from '../dist/adapters/postgres.js'
import { createAffiliateProgram } from '../dist/index.js'
import { importProgram, type ImportSource, type SourceAffiliate, type SourceCommission } from '../dist/importers/index.js'

const DATABASE_URL = process.env.DATABASE_URL
const AFFILIATES = Number(process.env.IMPORT_BENCH_AFFILIATES ?? 10_000)
const COMMISSIONS = Number(process.env.IMPORT_BENCH_COMMISSIONS ?? 100_000)
const BATCH = 1000
const fmt = (value: number) => Math.round(value).toLocaleString('en')
const STATES = ['due', 'paid', 'pending', 'due'] as const

function affiliate(i: number): SourceAffiliate {
  return { sourceId: `a${i}`, email: `aff${i}@example.com`, name: `Affiliate ${i}`, status: 'active', paypalEmail: null, tokens: [`aff${i}`], group: null }
}

/** Commission j: of affiliate j mod AFFILIATES, j + 1 cents, a sale ten times that, one a minute from 2025-01-01. */
function commission(j: number): SourceCommission {
  return {
    sourceId: `c${j}`,
    affiliateSourceId: `a${j % AFFILIATES}`,
    customerEmail: null,
    amountMinor: j + 1,
    currency: 'USD',
    state: STATES[j % STATES.length]!,
    occurredAt: new Date(Date.UTC(2025, 0, 1) + j * 60_000),
    saleAmountMinor: (j + 1) * 10,
    saleCurrency: 'USD',
  }
}

function source(): ImportSource {
  const range = async function* <T>(count: number, make: (i: number) => T) {
    for (let i = 0; i < count; i += 1) yield make(i)
  }
  return { name: 'bench', affiliates: () => range(AFFILIATES, affiliate), coupons: () => range(0, affiliate), customers: () => range(0, affiliate), commissions: () => range(COMMISSIONS, commission) } as ImportSource
}

async function viaImporter(pool: pg.Pool, schema: string): Promise<number> {
  const program = await createAffiliateProgram({ storage: postgresStorage({ pool, schema }), settings: { currency: 'USD', holdPeriodDays: 0 } })
  const started = performance.now()
  const report = await importProgram(program, source())
  const seconds = (performance.now() - started) / 1000
  if (report.errors > 0 || report.counts.commissions.created !== COMMISSIONS) throw new Error(`import incomplete: ${report.summaryLines().slice(0, 6).join('; ')}`)
  return (AFFILIATES + COMMISSIONS) / seconds
}

/** The same rows by hand: affiliates then conversions, BATCH rows per INSERT, no library. */
async function viaRawInsert(pool: pg.Pool, schema: string): Promise<number> {
  const program = await createAffiliateProgram({ storage: postgresStorage({ pool, schema }), settings: { currency: 'USD', holdPeriodDays: 0 } })
  const s = `"${schema}"`
  const started = performance.now()
  const ids: number[] = []
  for (let from = 0; from < AFFILIATES; from += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, AFFILIATES - from) }, (_, k) => affiliate(from + k))
    const params: unknown[] = []
    const values = rows.map((row) => {
      params.push(program.projectId, row.email, row.name, row.tokens[0], `bench:${row.sourceId}`)
      const n = params.length
      return `($${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, 'active', jsonb_build_object('importedFrom', $${n}::text), now())`
    })
    const result = await pool.query<{ id: string }>(`INSERT INTO ${s}.affiliates (project_id, email, name, referral_code, status, custom_fields, created_at) VALUES ${values.join(', ')} RETURNING id`, params)
    ids.push(...result.rows.map((row) => Number(row.id)))
  }
  for (let from = 0; from < COMMISSIONS; from += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, COMMISSIONS - from) }, (_, k) => commission(from + k))
    const params: unknown[] = []
    const values = rows.map((row, k) => {
      params.push(program.projectId, ids[(from + k) % AFFILIATES], row.amountMinor, row.saleAmountMinor, row.state === 'paid', `import:bench:${row.sourceId}`, row.occurredAt)
      const n = params.length
      return `($${n - 6}, $${n - 5}, 'purchase', $${n - 4}, $${n - 3}, 'USD', 0, $${n - 2}, 'active', $${n}, $${n - 1}, 'fp', 'explicit', 'fixed', NULL, 1, $${n})`
    })
    await pool.query(
      `INSERT INTO ${s}.conversions (project_id, affiliate_id, type, value_minor, base_value_minor, base_currency, refunded_base_value_minor,
        paid, status, hold_until, reference, fingerprint, basis, commission_type, commission_rate, tier, created_at) VALUES ${values.join(', ')}`,
      params,
    )
  }
  return (AFFILIATES + COMMISSIONS) / ((performance.now() - started) / 1000)
}

if (!DATABASE_URL) {
  console.log('import: DATABASE_URL is not set, nothing measured')
} else {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 })
  const schemas = [`affiliate_kit_import_bench_${process.pid}`, `affiliate_kit_import_raw_${process.pid}`]
  try {
    console.log(`import into PostgreSQL: ${fmt(AFFILIATES)} affiliates with ${fmt(COMMISSIONS)} commissions`)
    const raw = await viaRawInsert(pool, schemas[1]!)
    console.log(`  raw multi-row INSERT (${BATCH} rows a statement): ${fmt(raw)} records/s`)
    const imported = await viaImporter(pool, schemas[0]!)
    console.log(`  importProgram:                              ${fmt(imported)} records/s`)
    console.log(`  importer / raw: ${(imported / raw).toFixed(3)} (target >= 0.3)`)
  } finally {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await pool.end()
  }
}
