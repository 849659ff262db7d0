// The hot-rows mixed load (docs/scaling.md "A mixed load"): `affiliate-kit serve` processes on one
// database, requests alternating between them at a fixed rate (open loop: a slow answer does not
// slow the sender), 50 % purchases of many customers of 5 affiliates, 20 % affiliate reads, 20 %
// referral-link clicks from browsers, 5 % new affiliates, 5 % conversion lists, one webhook
// endpoint subscribed to a local receiver. Reports per window: rate answered, p50 / p99, 5xx,
// the servers' RSS and PostgreSQL's deadlocks. Used by `npm run bench` (soak) and a test.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'node:http'
import pg from 'pg'

export const LOAD_KEY = 'rgk_mixedload0123456789abcdefghijklmnopqrstuv'
const AFFILIATES = 5
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'
/** Requests still unanswered past this count are not sent (the window says so): the sender never runs away. */
const MAX_IN_FLIGHT = 3000

export interface Window {
  /** Seconds since the start, at the window's end. */
  at: number
  sent: number
  answered: number
  rate: number
  p50: number
  p99: number
  serverErrors: number
  /** Requests that got no answer (connection error) or were not sent (too many in flight). */
  failed: number
  /** The failures by error code ('not sent' past the in-flight cap). */
  failures: Record<string, number>
  rssMb: number
  deadlocks: number
}

export interface MixedLoadRun {
  windows: Window[]
  webhooks: () => number
  /** Purchases sent, and those answered 201 (each must be stored). */
  purchases: number
  acknowledged: number
  stop(): Promise<void>
}

interface Started {
  child: ChildProcess
  origin: string
}

/** A database of its own (deadlocks are counted per database), dropped by the returned function. */
export async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `affiliate_kit_load_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE "${name}"`)
  const own = new URL(url)
  own.pathname = `/${name}`
  return { url: own.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
}

function startServe(cli: string, configPath: string, database: string): Promise<Started> {
  const child = spawn(process.execPath, [cli, 'serve', '--config', configPath, '--port', '0', '--database', database], {
    env: { ...process.env, AFFILIATE_KIT_API_KEY: LOAD_KEY, DATABASE_URL: '', PORT: '', HOST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 120_000)
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000)
      const match = /listening on (http:\/\/[^\s/]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        child.stdout!.off('data', read)
        child.stdout!.resume()
        child.stderr!.resume()
        resolve({ child, origin: match[1]! })
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)))
  })
}

const rssMb = (pid: number | undefined) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Number(kb) / 1024 : 0
  } catch {
    return 0
  }
}

/** How many requests failed, whatever their error code. */
const failedIn = (failures: Record<string, number>) => Object.values(failures).reduce((sum, n) => sum + n, 0)

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!)

/**
 * Starts `processes` servers of `cli` on `database` (a postgres:// URL, or pglite:<dir>), runs the
 * load at `rate` requests/s for `seconds`, reporting each `windowSeconds` through `report`.
 */
export async function runMixedLoad(options: {
  cli: string
  database: string
  processes: number
  rate: number
  seconds: number
  windowSeconds: number
  report?: (window: Window) => void
}): Promise<MixedLoadRun> {
  let deliveries = 0
  const receiver: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      deliveries += 1
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-load-'))
  const configPath = join(dir, 'affiliate.config.json')
  writeFileSync(
    configPath,
    JSON.stringify({
      currency: 'USD',
      holdPeriodDays: 0,
      allowPrivateNetworks: true,
      commission: { purchase: { type: 'percentage', rate: 30 } },
      logLevel: 'info',
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
      tracking: { landingUrl: 'https://shop.example/', trustProxy: true, visitorsPerAddress: false },
      webhooks: [{ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['referral_converted', 'referral_updated'] }],
    }),
  )
  const servers: Started[] = []
  // One after the other: the first applies the migrations.
  for (let n = 0; n < options.processes; n += 1) servers.push(await startServe(options.cli, configPath, options.database))
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const pgClient = options.database.startsWith('postgres') ? new pg.Client({ connectionString: options.database }) : null
  await pgClient?.connect()
  const deadlocks = async () => (pgClient ? Number((await pgClient.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')).rows[0].deadlocks) : 0)

  // The window being measured (closeWindow starts the next).
  let current = { sent: 0, latencies: [] as number[], serverErrors: 0, failures: {} as Record<string, number> }
  let turn = 0
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, again = true) =>
    new Promise<number>((resolve) => {
      const { origin } = servers[turn++ % servers.length]!
      const url = new URL(path, origin)
      const payload = body === undefined ? undefined : JSON.stringify(body)
      const req = request(
        { host: url.hostname, port: url.port, method, path: url.pathname + url.search, agent: again ? agent : false, headers: { authorization: `Bearer ${LOAD_KEY}`, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}), ...headers } },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      // A kept-alive connection the server closed as idle just as the request left on it: sent
      // again once, as Node's docs advise (every write here is idempotent: references, emails), on
      // a new connection (after a stall past the keep-alive timeout the other idle ones are closing too).
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (again && req.reusedSocket && error.code === 'ECONNRESET') return resolve(send(method, path, body, headers, false))
        const code = `${error.code ?? error.message}${req.reusedSocket ? ' (kept-alive connection)' : ''}`
        current.failures[code] = (current.failures[code] ?? 0) + 1
        resolve(0)
      })
      req.end(payload)
    })
  for (let n = 1; n <= AFFILIATES; n += 1) {
    const status = await send('POST', '/api/v1/affiliates', { email: `load${n}@affiliates.example`, referral_code: `LOAD${n}` })
    if (status !== 201) throw new Error(`affiliate ${n}: ${status}`)
  }

  let sequence = 0
  let purchases = 0
  let acknowledged = 0
  const operation = (): Promise<number> => {
    sequence += 1
    const n = sequence
    const affiliate = (n % AFFILIATES) + 1
    const pick = n % 20
    if (pick < 10) {
      purchases += 1
      return send('POST', '/api/v1/conversions', { type: 'purchase', referral_code: `LOAD${affiliate}`, email: `c${n % 5000}@customers.example`, base_value: 49, reference: `load_${n}` }).then((status) => {
        if (status === 201) acknowledged += 1
        return status
      })
    }
    if (pick < 14) return send('GET', `/api/v1/affiliates/load${affiliate}%40affiliates.example`)
    if (pick < 18) return send('GET', `/r/LOAD${affiliate}`, undefined, { 'user-agent': BROWSER, 'x-forwarded-for': `198.18.${(n >> 8) & 255}.${n & 255}` })
    if (pick < 19) return send('POST', '/api/v1/affiliates', { email: `new${n}@affiliates.example` })
    return send('GET', '/api/v1/conversions?limit=50')
  }

  const windows: Window[] = []
  const started = performance.now()
  let inFlight = 0
  let deadlocksBefore = await deadlocks()
  const interval = 10
  let sentInAll = 0
  let lastWindow = started
  const pending = new Set<Promise<void>>()
  const closeWindow = async (now: number, seconds: number) => {
    const closing = current
    current = { sent: 0, latencies: [], serverErrors: 0, failures: {} }
    const sorted = [...closing.latencies].sort((a, b) => a - b)
    const total = await deadlocks()
    const window: Window = {
      at: Math.round((now - started) / 1000),
      sent: closing.sent,
      answered: closing.latencies.length,
      rate: closing.latencies.length / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      serverErrors: closing.serverErrors,
      failed: failedIn(closing.failures),
      failures: closing.failures,
      rssMb: servers.reduce((sum, server) => sum + rssMb(server.child.pid), 0),
      deadlocks: total - deadlocksBefore,
    }
    deadlocksBefore = total
    windows.push(window)
    options.report?.(window)
  }
  await new Promise<void>((resolve) => {
    const timer = setInterval(async () => {
      const now = performance.now()
      // What the rate owes by now, however late this tick fires.
      const owed = Math.min(options.rate, Math.floor((options.rate * Math.min(now - started, options.seconds * 1000)) / 1000) - sentInAll)
      for (let n = 0; n < owed; n += 1) {
        sentInAll += 1
        if (inFlight >= MAX_IN_FLIGHT) {
          current.failures['not sent'] = (current.failures['not sent'] ?? 0) + 1
          continue
        }
        inFlight += 1
        current.sent += 1
        const sentAt = performance.now()
        // Counted in the window it is answered in.
        const done = operation().then((status) => {
          inFlight -= 1
          // A request with no answer (status 0) was counted by its error code in send().
          if (status !== 0) {
            current.latencies.push(performance.now() - sentAt)
            if (status >= 500) current.serverErrors += 1
          }
        })
        pending.add(done)
        void done.then(() => pending.delete(done))
      }
      if (now - lastWindow >= options.windowSeconds * 1000) {
        lastWindow = now
        await closeWindow(now, options.windowSeconds)
      }
      if (now - started >= options.seconds * 1000) {
        clearInterval(timer)
        resolve()
      }
    }, interval)
  })
  // What was sent is answered before the run ends: the last window takes the late answers.
  await Promise.all(pending)
  if (current.sent > 0 || current.latencies.length > 0 || failedIn(current.failures) > 0) await closeWindow(performance.now(), (performance.now() - lastWindow) / 1000)
  return {
    windows,
    purchases,
    get acknowledged() {
      return acknowledged
    },
    webhooks: () => deliveries,
    async stop() {
      for (const { child } of servers) child.kill('SIGTERM')
      await Promise.all(servers.map(({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))))
      agent.destroy()
      await pgClient?.end()
      receiver.closeAllConnections()
      await new Promise((resolve) => receiver.close(resolve))
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A window as one line. */
export const windowLine = (w: Window) =>
  `${String(w.at).padStart(4)} s  ${w.rate.toFixed(0).padStart(4)}/s answered  p50 ${w.p50.toFixed(0).padStart(5)} ms  p99 ${w.p99.toFixed(0).padStart(6)} ms  5xx ${w.serverErrors}  failed ${w.failed}${w.failed ? ` (${Object.entries(w.failures).map(([code, n]) => `${code} ${n}`).join(', ')})` : ''}  RSS ${w.rssMb.toFixed(0)} MB  deadlocks ${w.deadlocks}`
