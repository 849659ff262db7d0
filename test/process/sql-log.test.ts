// The opt-in SQL log: the statements a create runs (the conversion's INSERT among them), inside
// BEGIN and COMMIT, with their parameter counts and never a parameter's value; the standalone
// server writes them as debug records with AFFILIATE_KIT_LOG_SQL=1.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pgliteStorage, type SqlLogEntry } from '../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import type { StoragePort } from '../../src/storage.js'
import { createAffiliateProgram } from '../../src/index.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const SECRETS = ['ann@example.com', 'bob@example.com', 'order-7731', 'ANNCODE']

/** Creates an affiliate and a conversion on the storage; the entries logged during the conversion's create. */
async function conversionCreate(storage: StoragePort, entries: SqlLogEntry[]) {
  const program = await createAffiliateProgram({ storage })
  const affiliate = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANNCODE' })
  entries.length = 0
  await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: '49.00', email: 'bob@example.com', reference: 'order-7731' })
  return [...entries]
}

function expectConversionInsert(entries: SqlLogEntry[], schema: string) {
  const insert = entries.find((entry) => entry.text.includes(`INSERT INTO "${schema}".conversions (`))
  expect(insert, entries.map((entry) => entry.text).join('\n')).toBeDefined()
  // One line, its columns named, and the counters updated in the same statement.
  expect(insert!.text).not.toMatch(/\n|\s{2}/)
  expect(insert!.text).toContain('value_minor')
  expect(insert!.text).toContain(`UPDATE "${schema}".affiliates SET`)
  expect(insert!.params).toBeGreaterThan(20)
  const texts = entries.map((entry) => entry.text)
  expect(texts.indexOf('BEGIN')).toBeLessThan(texts.indexOf(insert!.text))
  expect(texts.at(-1)).toBe('COMMIT')
  for (const secret of SECRETS) expect(JSON.stringify(entries)).not.toContain(secret)
}

const tempDir = tempDirs('affiliate-kit-sql-log')

describe('SQL log', () => {
  it('logs the statements of a conversion create on PGlite, the INSERT among them, never a value', async () => {
    const entries: SqlLogEntry[] = []
    const storage = pgliteStorage({ logSql: (entry) => entries.push(entry), dataDir: migratedDataDir(join(tempDir(), 'data')) })
    try {
      expectConversionInsert(await conversionCreate(storage, entries), 'affiliate_kit')
    } finally {
      await storage.close()
    }
  })

  it("leaves the migrations out: the first statement logged is the caller's", async () => {
    const entries: SqlLogEntry[] = []
    const storage = pgliteStorage({ logSql: (entry) => entries.push(entry) })
    await storage.ping()
    expect(entries.map((entry) => entry.text)).toEqual(['SELECT 1'])
    await storage.close()
  })

  it('logs a rolled-back transaction as ROLLBACK', async () => {
    const entries: SqlLogEntry[] = []
    const storage = pgliteStorage({ logSql: (entry) => entries.push(entry), dataDir: migratedDataDir(join(tempDir(), 'data')) })
    await storage.ping()
    entries.length = 0
    await expect(storage.transaction(async (tx) => (await tx.projects.get('none'), Promise.reject(new Error('undone'))))).rejects.toThrow('undone')
    expect(entries.map((entry) => entry.text)).toEqual(['BEGIN', expect.stringMatching(/^SELECT \* FROM "affiliate_kit".projects WHERE id = \$1 LIMIT 1$/), 'ROLLBACK'])
    expect(entries[1]!.params).toBe(1)
    await storage.close()
  })
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`SQL log on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('logs the statements of a conversion create, the INSERT among them, never a value', async () => {
    const schema = freshSchemaName()
    const entries: SqlLogEntry[] = []
    const storage = postgresStorage({ connectionString: DATABASE_URL!, schema, logSql: (entry) => entries.push(entry) })
    try {
      expectConversionInsert(await conversionCreate(storage, entries), schema)
    } finally {
      await storage.close()
      await dropSchema(schema)
    }
  })
})


describe('affiliate-kit serve with AFFILIATE_KIT_LOG_SQL=1', () => {
  it('writes each statement of a REST create as a debug record, and warns when the level hides them', async () => {
    const key = 'rgk_sqllogtest0123456789abcdef0123456789'
    const cwd = tempDir()
    migratedDataDir(join(cwd, 'affiliate-data')) // ./affiliate-data migrated already: the test is about the log, not a first start
    const server = run(['serve', '--port', '0', '--log-format', 'json'], { cwd, env: { AFFILIATE_KIT_LOG_SQL: '1', LOG_LEVEL: 'debug', AFFILIATE_KIT_API_KEY: key } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+?)"/, 60_000)
    expect((await api(url!, key, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANNCODE' })).status).toBe(201)
    const created = await api(url!, key, 'POST', '/conversions', { type: 'purchase', referral_code: 'ANNCODE', email: 'bob@example.com', base_value: 49, reference: 'order-7731' })
    expect(created.status).toBe(201)
    await server.waitFor(/"msg":"request".*"route":"\/api\/v1\/conversions"/)
    const records = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const insert = records.find((record) => record.msg === 'sql' && String(record.statement).includes('INSERT INTO "affiliate_kit".conversions ('))
    expect(insert).toMatchObject({ level: 'debug', params: expect.any(Number) })
    for (const secret of SECRETS) expect(records.filter((record) => record.msg === 'sql').map((record) => JSON.stringify(record)).join('\n')).not.toContain(secret)
    expect(await server.stop()).toBe(0)

    const quiet = run(['serve', '--port', '0'], { cwd, env: { AFFILIATE_KIT_LOG_SQL: '1', AFFILIATE_KIT_API_KEY: key } })
    await quiet.waitFor(/listening on/, 60_000)
    expect(quiet.output()).toContain('AFFILIATE_KIT_LOG_SQL is set, but sql records are debug records')
    expect(quiet.output()).not.toMatch(/DEBUG +sql /)
    expect(await quiet.stop()).toBe(0)
  }, 120_000)
})
