// Tracking figures (the built dist/; `npm run build` first). 1) GET /r/:code redirects per second
// through the tracking handler's `node` on node:http (memory adapter) next to a bare node:http
// server answering the same requests with a 302, each in its own child process, interleaved over
// rounds (medians): once with one returning visitor (counted once a day, then only checked) and
// once with a new visitor per request (every request counts). 2) The stats query on PostgreSQL
// (DATABASE_URL) at 1,000,000 clicks vs 1,000, counters seeded straight in SQL. Asserts nothing.
import { fork } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { measure, median, type BenchServer, type Load } from './load.js'

const CONCURRENCY = 32
const WARMUP_MS = 300
const DURATION_MS = 1000
const ROUNDS = 6

type Kind = 'bare' | 'library'

async function serve(kind: Kind): Promise<void> {
  let server
  if (kind === 'bare') {
    server = createServer((_req, res) => {
      res.writeHead(302, { Location: 'https://shop.example/', 'Cache-Control': 'no-store', 'content-length': '0' })
      res.end()
    })
  } else {
    const { memoryStorage } = await import('../dist/adapters/memory.js')
    const { createAffiliateProgram } = await import('../dist/index.js')
    const { createTrackingHandler } = await import('../dist/tracking/index.js')
    const program = await createAffiliateProgram({ storage: memoryStorage() })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    // Every load comes from 127.0.0.1: without a bound per address the new visitors all count.
    server = createServer(createTrackingHandler(program, { landingUrl: 'https://shop.example/', visitorsPerAddress: false }).node)
  }
  process.on('message', () => process.send!(process.cpuUsage()))
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }))
}

async function startChild(kind: Kind): Promise<BenchServer> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', kind], { execArgv: ['--import', 'tsx'], stdio: 'inherit' })
  const info = await new Promise<{ port: number }>((resolve) => child.once('message', resolve as never))
  return { child, ...info }
}

/** A browser's user agent (bots count nothing), one per visitor. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SHAPE = { concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS }
const load = (newVisitors: boolean): Load => ({
  method: 'GET',
  path: '/r/ANN',
  headers: (sent) => ({ 'user-agent': newVisitors ? `${BROWSER} visitor-${process.pid}-${sent}` : BROWSER }),
})
const measureRedirects = (server: BenchServer, newVisitors: boolean) => measure(server, load(newVisitors), SHAPE)

async function redirects(): Promise<void> {
  console.log(`node ${process.version}, ${CONCURRENCY} in flight, ${ROUNDS} rounds of ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up`)
  const bare = await startChild('bare')
  const lib = await startChild('library')
  const figures = { bare: [] as number[], returning: [] as number[], fresh: [] as number[], returningCpu: [] as number[], freshCpu: [] as number[], bareCpu: [] as number[] }
  const ratios = { returning: [] as number[], fresh: [] as number[] }
  for (let round = 0; round < ROUNDS; round += 1) {
    const base = await measureRedirects(bare, false)
    const returning = await measureRedirects(lib, false)
    const fresh = await measureRedirects(lib, true)
    figures.bare.push(base.rps)
    figures.bareCpu.push(base.cpuUs)
    figures.returning.push(returning.rps)
    figures.returningCpu.push(returning.cpuUs)
    figures.fresh.push(fresh.rps)
    figures.freshCpu.push(fresh.cpuUs)
    ratios.returning.push(returning.rps / base.rps)
    ratios.fresh.push(fresh.rps / base.rps)
  }
  bare.child.kill('SIGINT')
  lib.child.kill('SIGINT')
  const line = (name: string, rps: number[], cpu: number[], ratio?: number[]) =>
    console.log(`${name.padEnd(44)} ${median(rps).toFixed(0).padStart(6)} redirects/s ${ratio ? `${(median(ratio) * 100).toFixed(0).padStart(4)}% of bare` : '          '}  server CPU ${median(cpu).toFixed(1).padStart(5)} µs/request`)
  line('bare node:http 302 (baseline)', figures.bare, figures.bareCpu)
  line('GET /r/:code, returning visitor', figures.returning, figures.returningCpu, ratios.returning)
  line('GET /r/:code, new visitor per request', figures.fresh, figures.freshCpu, ratios.fresh)
  console.log('target: at least 60% of the bare server (medians of per-round ratios)')
}

async function statsAtScale(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.log('stats query: skipped (set DATABASE_URL for the PostgreSQL figures)')
    return
  }
  const pg = (await import('pg')).default
  const { postgresStorage } = await import('../dist/adapters/postgres.js')
  const { createAffiliateProgram } = await import('../dist/index.js')
  const schema = `bench_tracking_${process.pid}`
  const pool = new pg.Pool({ connectionString: url, max: 4 })
  const storage = postgresStorage({ pool, schema })
  try {
    const results: string[] = []
    const timings: Record<string, number> = {}
    for (const [label, clicks, affiliates] of [
      ['1k clicks', 1_000, 10],
      ['1M clicks', 1_000_000, 1_000],
    ] as const) {
      const program = await createAffiliateProgram({ storage, project: `bench-${label}` })
      const first = await program.affiliates.create({ email: 'first@example.com', referralCode: `FIRST${clicks}` })
      const s = `"${schema}"`
      // A year of days; `clicks` spread over `affiliates` affiliates and the project's own rows, as addDaily keeps them.
      await pool.query(
        `INSERT INTO ${s}.tracking_daily (project_id, affiliate_id, day, clicks, visitors, signups, purchases, revenue_minor, commission_minor)
         SELECT $1, CASE WHEN a = 1 THEN $2::bigint ELSE 1000000 + a END, date '2025-01-01' + d, $3::bigint / ($4 * 365), $3::bigint / ($4 * 365), 1, 1, 1000, 300
         FROM generate_series(1, $4::int) AS a, generate_series(0, 364) AS d`,
        [program.projectId, first.id, clicks, affiliates],
      )
      await pool.query(
        `INSERT INTO ${s}.tracking_daily (project_id, affiliate_id, day, clicks, visitors, signups, purchases, revenue_minor, commission_minor)
         SELECT $1, 0, date '2025-01-01' + d, $2::bigint / 365, $2::bigint / 365, $3::bigint, $3::bigint, 1000 * $3::bigint, 300 * $3::bigint FROM generate_series(0, 364) AS d`,
        [program.projectId, clicks, affiliates],
      )
      await pool.query(`ANALYZE ${s}.tracking_daily`)
      const query = { from: '2025-01-01', to: '2026-01-01', interval: 'week' as const }
      for (let warm = 0; warm < 5; warm += 1) await program.stats.program(query)
      const runs = 30
      const started = performance.now()
      for (let run = 0; run < runs; run += 1) {
        await program.stats.program(query)
        await program.stats.affiliate('first@example.com', query)
      }
      timings[label] = (performance.now() - started) / runs
      const check = await program.stats.program(query)
      results.push(`${label.padEnd(10)} (${affiliates} affiliates, year of counters): program + affiliate stats, 53 weekly buckets: ${timings[label]!.toFixed(2)} ms (total clicks ${check.totals.clicks})`)
    }
    for (const line of results) console.log(line)
    console.log(`1M / 1k: ${(timings['1M clicks']! / timings['1k clicks']!).toFixed(2)}x (target: within 2x)`)
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await storage.close()
  }
}

if (process.argv[2] === 'serve') {
  process.on('SIGINT', () => process.exit(0))
  await serve(process.argv[3] as Kind)
} else {
  // BENCH_PART=redirects or stats runs one half.
  if (process.env.BENCH_PART !== 'stats') await redirects()
  if (process.env.BENCH_PART !== 'redirects') await statsAtScale()
}
