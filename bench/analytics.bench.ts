// Link analytics figures (the built dist/; `npm run build` first; PostgreSQL from DATABASE_URL).
// 1) GET /r/<link> with analytics on (click buffer, cached link lookup, country header, campaign
//    parameters), a new visitor per request, next to a bare node:http 302 and to that 302 plus the
//    work no counted visit can skip (the floor), on memory and on PostgreSQL, each server in its
//    own child process, interleaved over rounds (medians).
// 2) Click rows written by the flush (recordClicks: visitor marks, rows, totals, day counters,
//    rollups) against raw multi-row INSERTs of the same rows into the same table.
// 3) The analytics query (30 days x 20 campaigns) at 10M stored clicks against 10k.
// 4) RSS while 1M clicks pass through one process's tracking handler on PostgreSQL.
// Asserts nothing. BENCH_PART=redirects|writes|query|rss runs one part.
import { fork } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { measure, median, type BenchServer, type Load } from './load.js'

const CONCURRENCY = 32
const WARMUP_MS = 300
const DURATION_MS = 1000
const ROUNDS = 6
const URL_ = process.env.DATABASE_URL
const part = process.env.BENCH_PART

type Kind = 'bare' | 'floor' | 'memory' | 'postgres'

/** Twenty browsers' user agents: real traffic repeats a few thousand; each visitor is an address and one of these. */
const AGENTS = Array.from({ length: 20 }, (_, i) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${110 + i}.0.0.0 Safari/537.36`)
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP']

async function serve(kind: Kind): Promise<void> {
  let server
  if (kind === 'bare') {
    server = createServer((_req, res) => {
      res.writeHead(302, { Location: 'https://shop.example/', 'Cache-Control': 'no-store', 'content-length': '0' })
      res.end()
    })
  } else if (kind === 'floor') {
    // The bare 302 plus what no counted visit can skip: the bot check, the visitor's hash, the
    // click's id and the referral's signature (two HMACs), and the cookie and landing URL built.
    const { createHash, createHmac } = await import('node:crypto')
    const { isbot } = await import('isbot')
    server = createServer((req, res) => {
      const agent = req.headers['user-agent'] ?? ''
      const bot = isbot(agent)
      const visitor = createHash('sha256').update(`salt\n2026-12-08\n${req.headers['x-forwarded-for']}\n${agent}`).digest('base64url').slice(0, 32)
      const click = createHmac('sha256', 'salt').update(`click\n${visitor}\n1\n0\n493000`).digest('base64url').slice(0, 16)
      const value = `ANN.1800000000.${visitor.slice(0, 16)}.${click}.${createHmac('sha256', 'salt').update(`referral\nANN\n${visitor}\n${click}`).digest('base64url').slice(0, 22)}`
      const location = new URL('https://shop.example/')
      location.search = `utm_source=youtube&ak_ref=${encodeURIComponent(value)}`
      res.writeHead(302, { Location: location.href, 'Set-Cookie': `ak_ref=${value}; Max-Age=5184000; Path=/; SameSite=Lax`, 'Cache-Control': 'no-store', 'content-length': '0', 'x-bot': String(bot) })
      res.end()
    })
  } else {
    const { createAffiliateProgram } = await import('../dist/index.js')
    const { createTrackingHandler } = await import('../dist/tracking/index.js')
    const storage = kind === 'memory' ? (await import('../dist/adapters/memory.js')).memoryStorage() : await postgresBenchStorage(`bench_analytics_${process.pid}`)
    const program = await createAffiliateProgram({ storage })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const tracking = createTrackingHandler(program, {
      landingUrl: 'https://shop.example/',
      // The load comes from one host: each request names its visitor's address in X-Forwarded-For.
      trustProxy: true,
      visitorsPerAddress: false,
      clicks: { flushMilliseconds: 1000 },
      linkCacheSeconds: 10,
      country: { header: 'CF-IPCountry' },
    })
    server = createServer(tracking.node)
    process.on('SIGINT', () => void tracking.close().then(() => program.close()).finally(() => process.exit(0)))
  }
  process.on('message', () => process.send!(process.cpuUsage()))
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }))
}

/** A PostgreSQL storage in a schema of its own, dropped on close. */
async function postgresBenchStorage(schema: string) {
  const { postgresStorage } = await import('../dist/adapters/postgres.js')
  const pg = (await import('pg')).default
  const pool = new pg.Pool({ connectionString: URL_, max: 8 })
  const storage = postgresStorage({ pool, schema })
  const close = storage.close.bind(storage)
  return Object.assign(storage, {
    close: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined)
      await close()
    },
  })
}

async function startChild(kind: Kind): Promise<BenchServer> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', kind], { execArgv: ['--import', 'tsx'], stdio: 'inherit' })
  const info = await new Promise<{ port: number }>((resolve) => child.once('message', resolve as never))
  return { child, ...info }
}

const visitorHeaders = (sent: number) => ({
  'user-agent': AGENTS[sent % AGENTS.length]!,
  'x-forwarded-for': `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
  'cf-ipcountry': COUNTRIES[sent % COUNTRIES.length]!,
  referer: 'https://www.youtube.com/watch?v=bench',
})
const LOAD: Load = { method: 'GET', path: '/r/ANN?utm_source=youtube&utm_medium=video&utm_campaign=spring&sub1=bench', headers: visitorHeaders }

async function redirects(): Promise<void> {
  console.log(`redirects: ${CONCURRENCY} in flight, ${ROUNDS} rounds of ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up, a new visitor per request`)
  const kinds: Kind[] = URL_ ? ['memory', 'postgres'] : ['memory']
  const bare = await startChild('bare')
  const servers = new Map<Kind, BenchServer>([['floor', await startChild('floor')]])
  for (const kind of kinds) servers.set(kind, await startChild(kind))
  const shape = { concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS }
  const figures = new Map<string, { rps: number[]; cpu: number[]; ratio: number[] }>()
  const keep = (name: string, rps: number, cpu: number, ratio: number) => {
    const entry = figures.get(name) ?? { rps: [], cpu: [], ratio: [] }
    entry.rps.push(rps)
    entry.cpu.push(cpu)
    entry.ratio.push(ratio)
    figures.set(name, entry)
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    const base = await measure(bare, LOAD, shape)
    keep('bare node:http 302 (baseline)', base.rps, base.cpuUs, 1)
    for (const [kind, server] of servers) {
      const figure = await measure(server, LOAD, shape)
      keep(kind === 'floor' ? 'floor: 302 + bot check, hash, 2 HMACs, cookie' : `GET /r/:link, analytics on, ${kind}`, figure.rps, figure.cpuUs, figure.rps / base.rps)
    }
  }
  bare.child.kill('SIGINT')
  for (const server of servers.values()) server.child.kill('SIGINT')
  for (const [name, { rps, cpu, ratio }] of figures) {
    console.log(`${name.padEnd(40)} ${median(rps).toFixed(0).padStart(6)} redirects/s ${(median(ratio) * 100).toFixed(0).padStart(4)}% of bare  server CPU ${median(cpu).toFixed(1).padStart(5)} µs/request`)
  }
  console.log('target: at least 80% of the bare server on memory and PostgreSQL (medians of per-round ratios); the floor is what any counted visit costs')
}

/** Clicks as the tracking surface builds them: `n` visitors of one affiliate over a day, 20 campaigns. */
function clickVisits(affiliateId: number, n: number, offset: number, day: Date) {
  return Array.from({ length: n }, (_, k) => {
    const i = offset + k
    return {
      id: `c${String(i).padStart(15, '0')}`,
      at: new Date(day.getTime() + ((i * 7919) % 86_400_000)),
      day: day.toISOString().slice(0, 10),
      affiliateId,
      linkId: null,
      visitor: `visitor-${i}`,
      referrerHost: 'www.youtube.com',
      country: COUNTRIES[i % COUNTRIES.length]!,
      device: i % 3 === 0 ? ('mobile' as const) : ('desktop' as const),
      browser: 'Chrome',
      utmSource: 'youtube',
      utmMedium: 'video',
      utmCampaign: `campaign-${i % 20}`,
      utmTerm: null,
      utmContent: null,
      sub1: null,
      sub2: null,
      sub3: null,
      sub4: null,
      sub5: null,
    }
  })
}

async function writes(): Promise<void> {
  if (!URL_) return console.log('click writes: skipped (set DATABASE_URL)')
  const { createAffiliateProgram } = await import('../dist/index.js')
  const pg = (await import('pg')).default
  const schema = `bench_clicks_${process.pid}`
  const storage = await postgresBenchStorage(schema)
  const pool = new pg.Pool({ connectionString: URL_, max: 2 })
  try {
    const program = await createAffiliateProgram({ storage })
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const BATCH = 500
    const BATCHES = 40
    const day = new Date('2026-11-02T00:00:00Z')
    const ours: number[] = []
    const raw: number[] = []
    for (let round = 0; round < 3; round += 1) {
      let started = performance.now()
      for (let b = 0; b < BATCHES; b += 1) await program.tracking.recordClicks(clickVisits(ann.id, BATCH, (round * BATCHES + b) * BATCH, day))
      ours.push((BATCH * BATCHES) / ((performance.now() - started) / 1000))
      // The same rows again, as raw multi-row INSERTs into the same table under other ids: nothing but the rows.
      started = performance.now()
      for (let b = 0; b < BATCHES; b += 1) {
        const rows = clickVisits(ann.id, BATCH, (round * BATCHES + b) * BATCH, day)
        const columns = ['id', 'hour', 'at', 'day', 'utm_campaign', 'country', 'device'] as const
        await pool.query(
          `INSERT INTO "${schema}".link_clicks (project_id, id, hour, at, day, affiliate_id, new_visitor, utm_source, utm_medium, utm_campaign, referrer_host, country, device, browser)
           SELECT $1, id, hour, at, day::date, $2, true, 'youtube', 'video', campaign, 'www.youtube.com', country, device, 'Chrome'
           FROM unnest($3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::text[]) AS t(${columns.map((c) => (c === 'utm_campaign' ? 'campaign' : c)).join(', ')})
           ON CONFLICT DO NOTHING`,
          [
            program.projectId,
            ann.id,
            rows.map((row) => `raw${row.id}`),
            rows.map((row) => new Date(Math.floor(row.at.getTime() / 3_600_000) * 3_600_000)),
            rows.map((row) => row.at),
            rows.map((row) => row.day),
            rows.map((row) => row.utmCampaign),
            rows.map((row) => row.country),
            rows.map((row) => row.device),
          ],
        )
      }
      raw.push((BATCH * BATCHES) / ((performance.now() - started) / 1000))
    }
    const ratio = median(ours.map((value, i) => value / raw[i]!))
    console.log(`click rows written by the flush: ${median(ours).toFixed(0)} rows/s; raw multi-row INSERTs of the same rows: ${median(raw).toFixed(0)} rows/s; ${(ratio * 100).toFixed(0)}% (target: at least 50%)`)
  } finally {
    await pool.end()
    await storage.close()
  }
}

async function queryAtScale(): Promise<void> {
  if (!URL_) return console.log('analytics query: skipped (set DATABASE_URL)')
  const { createAffiliateProgram } = await import('../dist/index.js')
  const pg = (await import('pg')).default
  const schema = `bench_analytics_query_${process.pid}`
  const storage = await postgresBenchStorage(schema)
  const pool = new pg.Pool({ connectionString: URL_, max: 2 })
  try {
    const timings: Record<string, number> = {}
    for (const [label, clicks] of [
      ['10k clicks', 10_000],
      ['10M clicks', 10_000_000],
    ] as const) {
      const program = await createAffiliateProgram({ storage, project: `bench-${clicks}` })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: `ANN${clicks}` })
      const s = `"${schema}"`
      // A year of clicks (12 monthly partitions and the default): 20 campaigns, 5 countries, 2 devices.
      await pool.query(`SELECT 1`)
      const started = performance.now()
      await pool.query(
        `INSERT INTO ${s}.link_clicks (project_id, id, hour, at, day, affiliate_id, new_visitor, utm_source, utm_medium, utm_campaign, country, device)
         SELECT $1, 'c' || g, date_trunc('hour', t), t, t::date, $2, g % 3 = 0, 'youtube', 'video', 'campaign-' || (g % 20), (ARRAY['US','DE','FR','GB','JP'])[1 + g % 5], CASE WHEN g % 3 = 0 THEN 'mobile' ELSE 'desktop' END
         FROM generate_series(1, $3::bigint) AS g, LATERAL (SELECT timestamptz '2025-12-01 00:00:00+00' + (g * 31536000.0 / $3) * interval '1 second' AS t) AS at_`,
        [program.projectId, ann.id, clicks],
      )
      await pool.query(
        `INSERT INTO ${s}.click_rollups (project_id, day, affiliate_id, link_id, utm_source, utm_medium, utm_campaign, country, device, clicks, visitors, bot_clicks)
         SELECT project_id, day, affiliate_id, 0, utm_source, utm_medium, utm_campaign, country, device, count(*), count(*) FILTER (WHERE new_visitor), 0
         FROM ${s}.link_clicks WHERE project_id = $1 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
        [program.projectId],
      )
      await pool.query(`ANALYZE ${s}.link_clicks`)
      await pool.query(`ANALYZE ${s}.click_rollups`)
      console.log(`${label}: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`)
      const query = { metrics: ['clicks', 'visitors', 'signups', 'conversions', 'revenue', 'commission'], groupBy: 'utm_campaign' as const, from: '2026-10-01', to: '2026-10-31' }
      for (let warm = 0; warm < 5; warm += 1) await program.analytics.query(query)
      const runs = 30
      const at = performance.now()
      for (let run = 0; run < runs; run += 1) await program.analytics.query(query)
      timings[label] = (performance.now() - at) / runs
      const answer = await program.analytics.query(query)
      console.log(`${label}: 30 days x ${answer.rows.length} campaigns: ${timings[label]!.toFixed(2)} ms (clicks in range ${answer.totals.clicks})`)
    }
    console.log(`10M / 10k: ${(timings['10M clicks']! / timings['10k clicks']!).toFixed(2)}x (target: at most 1.2x)`)
  } finally {
    await pool.end()
    await storage.close()
  }
}

async function rssUnderClicks(): Promise<void> {
  if (!URL_) return console.log('RSS under clicks: skipped (set DATABASE_URL)')
  const { createAffiliateProgram } = await import('../dist/index.js')
  const { createTrackingHandler } = await import('../dist/tracking/index.js')
  const storage = await postgresBenchStorage(`bench_analytics_rss_${process.pid}`)
  try {
    const program = await createAffiliateProgram({ storage })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const tracking = createTrackingHandler(program, { landingUrl: 'https://shop.example/', trustProxy: true, visitorsPerAddress: false, clicks: { flushMilliseconds: 1000 }, linkCacheSeconds: 10, country: { header: 'CF-IPCountry' } })
    const TOTAL = 1_000_000
    const IN_FLIGHT = 64
    const samples: Array<[number, number]> = []
    let sent = 0
    const started = performance.now()
    const worker = async () => {
      while (sent < TOTAL) {
        const i = (sent += 1)
        const headers = new Headers(visitorHeaders(i))
        await tracking(new Request(`http://go.example${LOAD.path}`, { headers }))
        if (i % 100_000 === 0) {
          global.gc?.()
          samples.push([i, process.memoryUsage().rss])
        }
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
    await tracking.close()
    const seconds = (performance.now() - started) / 1000
    const after = samples.filter(([i]) => i >= 200_000).map(([, rss]) => rss)
    const spread = (Math.max(...after) - Math.min(...after)) / Math.min(...after)
    console.log(`1M clicks through one process in ${seconds.toFixed(0)} s (${(TOTAL / seconds).toFixed(0)}/s, flushed to PostgreSQL)`)
    console.log(`RSS every 100k clicks: ${samples.map(([, rss]) => `${(rss / 1048576).toFixed(0)}`).join(', ')} MB; from 200k on it moves ${(spread * 100).toFixed(1)}% (target: within 10%)`)
  } finally {
    await storage.close()
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] as Kind)
} else {
  if (!part || part === 'redirects') await redirects()
  if (!part || part === 'writes') await writes()
  if (!part || part === 'query') await queryAtScale()
  if (!part || part === 'rss') await rssUnderClicks()
}
