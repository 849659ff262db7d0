// `affiliate-kit serve` on PostgreSQL under faults (issue 51), as an operator meets them, under a
// steady load of purchases: its connections terminated mid-transaction (pg_terminate_backend on
// this test's own backends only, found by the application_name in its URL), and a table locked
// by someone else for seconds. The process stays up; a request caught by the fault answers 503
// with Retry-After within the configured bounds; purchases succeed again by themselves; every
// acknowledged purchase is stored and no refused one is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, run, type Running } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const KEY = `rgk_${'Pg0Fault1Key2'.repeat(3)}xyz`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!DATABASE_URL)(`serve on PostgreSQL under faults${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const applicationName = `ak_faults_serve_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let admin: pg.Client
  let server: Running
  let url: string
  const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-pg-faults-'))
  beforeAll(async () => {
    database = await freshDatabase()
    admin = new pg.Client({ connectionString: database.url })
    await admin.connect()
    const target = new URL(database.url)
    target.searchParams.set('application_name', applicationName)
    // The load is far above the default rate limit of 100 requests a minute per key.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ rateLimit: { limit: 1_000_000, windowSeconds: 60 } }))
    server = run(['serve', '--port', '0', '--database', target.toString(), '--config', 'config.json', '--log-format', 'json'], {
      cwd: dir,
      env: { AFFILIATE_KIT_API_KEY: KEY, AFFILIATE_KIT_LOCK_TIMEOUT_MS: '500', AFFILIATE_KIT_POOL_TIMEOUT_MS: '1000' },
    })
    ;[, url] = (await server.waitFor(/"msg":"listening on (http:\/\/[^"]+)"/)) as unknown as [string, string]
    expect((await api(url, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await admin?.end()
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  let sequence = 0
  async function purchase(): Promise<{ reference: string; status: number; retryAfter: string | null; error?: string }> {
    const reference = `ch_${++sequence}`
    const response = await fetch(`${url}/conversions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'purchase', referral_code: 'ANN', email: `buyer${sequence}@example.com`, base_value: 10, reference }),
    }).catch((error: unknown) => {
      // A server that died says why in its last lines.
      throw new Error(`POST /conversions failed (server exit code ${server.child.exitCode}); the server's last output:\n${server.output().slice(-3000)}`, { cause: error })
    })
    const body = (await response.json()) as { error?: string }
    return { reference, status: response.status, retryAfter: response.headers.get('retry-after'), ...(body.error ? { error: body.error } : {}) }
  }

  const storedReferences = async () =>
    (await admin.query<{ reference: string }>("SELECT reference FROM affiliate_kit.conversions WHERE type = 'purchase' ORDER BY reference")).rows.map((row) => row.reference).sort()

  it('stays up when its connections are terminated mid-transaction: 503 with Retry-After, then purchases succeed again; nothing acknowledged lost, nothing refused stored', async () => {
    const results: Awaited<ReturnType<typeof purchase>>[] = []
    let loading = true
    const workers = Array.from({ length: 6 }, async () => {
      while (loading) results.push(await purchase())
    })
    let terminated = 0
    for (let round = 0; round < 4; round += 1) {
      await sleep(400)
      const { rowCount } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName])
      terminated += rowCount ?? 0
    }
    await sleep(600)
    loading = false
    await Promise.all(workers)

    expect(terminated).toBeGreaterThan(0)
    expect(server.child.exitCode).toBeNull()
    expect(server.output()).not.toMatch(/Unhandled 'error' event/)
    const statuses = new Set(results.map((result) => result.status))
    expect([...statuses].filter((status) => status !== 201 && status !== 503)).toEqual([])
    const refused = results.filter((result) => result.status === 503)
    expect(refused.length).toBeGreaterThan(0)
    for (const result of refused) {
      expect(result.retryAfter).toMatch(/^\d+$/)
      expect(result.error).toMatch(/^the database is unavailable \(.+\); nothing was saved, retry after \d+ s$/)
    }
    // The log says why, once per 10 s with a count, beside each request's own record.
    expect(server.output()).toMatch(/"level":"warn","msg":"the database is unavailable \(.+\): answering 503 with Retry-After","status":503,"requests":1/)
    // Recovered by itself: the next purchases succeed, and /readyz says ready.
    expect((await purchase()).status).toBe(201)
    const root = url.replace(/\/api\/v1$/, '')
    expect((await fetch(`${root}/readyz`)).status).toBe(200)
    const acknowledged = results.filter((result) => result.status === 201).map((result) => result.reference)
    const stored = await storedReferences()
    expect(stored.filter((reference) => reference !== `ch_${sequence}`)).toEqual(acknowledged.sort())
  }, 60_000)

  it('answers within the lock timeout while a table is locked for seconds, keeps answering what does not touch it, and writes again once unlocked', async () => {
    const before = await storedReferences()
    await admin.query('BEGIN')
    await admin.query('LOCK TABLE affiliate_kit.referrals IN ACCESS EXCLUSIVE MODE')
    const root = url.replace(/\/api\/v1$/, '')
    try {
      const started = performance.now()
      // More purchases at once than the pool's 10 connections: each answers within the lock and checkout timeouts.
      const burst = await Promise.all(Array.from({ length: 16 }, () => purchase()))
      const burstMs = performance.now() - started
      expect(burst.map((result) => result.status)).toEqual(burst.map(() => 503))
      expect(burst.every((result) => result.retryAfter !== null)).toBe(true)
      expect(burst.map((result) => result.error)).toContainEqual(expect.stringMatching(/lock timeout/))
      expect(burstMs).toBeLessThan(4000)
      const reading = performance.now()
      const read = await api(url, KEY, 'GET', '/affiliates/ann@example.com')
      expect(read.status).toBe(200)
      expect(performance.now() - reading).toBeLessThan(2000)
      expect((await fetch(`${root}/readyz`)).status).toBe(200)
    } finally {
      await admin.query('ROLLBACK')
    }
    const after = await purchase()
    expect(after.status).toBe(201)
    expect(await storedReferences()).toEqual([...before, after.reference].sort())
    expect(server.child.exitCode).toBeNull()
  }, 60_000)
})
