// Tail latency of POST /conversions (the built dist/; `npm run build` first), as a payment
// provider's webhook sender feels it: for each adapter (memory, PGlite in a data directory,
// PostgreSQL when DATABASE_URL is set) the server runs in its own child process; autocannon first
// finds the maximum rate, then sends a fixed rate of half of it and every response time is kept
// (full precision, not autocannon's whole-millisecond histogram) for p50 / p99 / p99.9.
// Target: p99 <= 5x p50. Asserts nothing.
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

type AdapterName = 'memory' | 'PGlite' | 'PostgreSQL'

const CONNECTIONS = 16
const MAX_RATE_SECONDS = 4
const FIXED_RATE_SECONDS = 10

async function serve(adapter: AdapterName): Promise<void> {
  const { createAffiliateProgram } = await import('../dist/index.js')
  const { createHandler, toNodeHandler } = await import('../dist/http/index.js')
  let cleanup = async () => {}
  let storage
  if (adapter === 'memory') {
    storage = (await import('../dist/adapters/memory.js')).memoryStorage()
  } else if (adapter === 'PGlite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'affiliate-kit-tail-'))
    storage = (await import('../dist/adapters/pglite.js')).pgliteStorage({ dataDir })
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true })
  } else {
    const pg = (await import('pg')).default
    const schema = `affiliate_kit_tail_${process.pid}`
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 })
    storage = (await import('../dist/adapters/postgres.js')).postgresStorage({ pool, schema })
    cleanup = async () => {
      // A request whose client hung up when the load stopped may still be running its statements.
      for (let quiet = 0; quiet < 5; quiet = pool.idleCount === pool.totalCount && pool.waitingCount === 0 ? quiet + 1 : 0) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await pool.end()
    }
  }
  const program = await createAffiliateProgram({ storage })
  const { key } = await program.keys.create()
  const affiliate = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
  const server = createServer(toNodeHandler(createHandler(program, { rateLimit: false })))
  process.on('SIGINT', async () => {
    // Requests still queued when the load stopped finish before the database goes.
    await new Promise((resolve) => {
      server.close(resolve)
      server.closeIdleConnections()
    })
    await program.close()
    await cleanup()
    process.exit(0)
  })
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, key, affiliateId: affiliate.id }))
}

interface Child {
  process: ChildProcess
  port: number
  key: string
  affiliateId: number
}

async function startChild(adapter: AdapterName): Promise<Child> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', adapter], { execArgv: ['--import', 'tsx'], stdio: 'inherit' })
  const info = await new Promise<Omit<Child, 'process'>>((resolve) => child.once('message', resolve as never))
  return { process: child, ...info }
}

async function stopChild(child: Child): Promise<void> {
  const exited = new Promise((resolve) => child.process.once('exit', resolve))
  child.process.kill('SIGINT')
  await exited
}

interface Run {
  requestsPerSecond: number
  /** Every 2xx response time in milliseconds. */
  latencies: number[]
  errors: number
}

function load(child: Child, seconds: number, overallRate?: number): Promise<Run> {
  const latencies: number[] = []
  let errors = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${child.port}/api/v1/conversions`,
        method: 'POST',
        headers: { authorization: `Bearer ${child.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'purchase', affiliate_id: child.affiliateId, base_value: 19.99 }),
        connections: CONNECTIONS,
        duration: seconds,
        ...(overallRate ? { overallRate } : {}),
      },
      (error, result) => {
        if (error) return reject(error)
        resolve({ requestsPerSecond: result.requests.total / seconds, latencies, errors: errors + result.non2xx })
      },
    )
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
    })
    instance.on('reqError', () => {
      errors += 1
    })
  })
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** The bare twin: node:http answering the same request with a fixed body, no library. */
async function bareMaximum(): Promise<number> {
  const body = JSON.stringify({ hello: 'world' })
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const child: Child = { process: undefined as never, port: (server.address() as AddressInfo).port, key: '', affiliateId: 0 }
  const run = await load(child, 2)
  server.close()
  return run.requestsPerSecond
}

async function main(): Promise<void> {
  const adapters: AdapterName[] = ['memory', 'PGlite']
  if (process.env.DATABASE_URL) adapters.push('PostgreSQL')
  else console.log('PostgreSQL: skipped (DATABASE_URL is not set)')
  console.log(`POST /conversions, ${CONNECTIONS} connections; maximum over ${MAX_RATE_SECONDS} s, then half of it for ${FIXED_RATE_SECONDS} s`)
  console.log(`(load generator alone against a bare node:http server in this process: ${Math.round(await bareMaximum())} req/s)`)
  console.log('adapter      max req/s  fixed req/s      p50 ms    p99 ms  p99.9 ms  p99/p50 (target <= 5)')
  for (const adapter of adapters) {
    const child = await startChild(adapter)
    try {
      await load(child, 2) // warm-up
      const maximum = await load(child, MAX_RATE_SECONDS)
      const fixed = await load(child, FIXED_RATE_SECONDS, Math.max(1, Math.floor(maximum.requestsPerSecond / 2)))
      const sorted = [...fixed.latencies].sort((a, b) => a - b)
      const [p50, p99, p999] = [50, 99, 99.9].map((p) => percentile(sorted, p)) as [number, number, number]
      const errors = maximum.errors + fixed.errors
      console.log(
        `${adapter.padEnd(12)} ${Math.round(maximum.requestsPerSecond).toString().padStart(9)}  ${Math.round(fixed.requestsPerSecond).toString().padStart(11)}  ` +
          `${p50.toFixed(2).padStart(9)} ${p99.toFixed(2).padStart(9)} ${p999.toFixed(2).padStart(9)}  ${(p99 / p50).toFixed(1).padStart(7)}` +
          (errors ? `  (${errors} errors)` : ''),
      )
    } finally {
      await stopChild(child)
    }
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as AdapterName)
else await main()
