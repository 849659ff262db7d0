// What one more app process buys on one PostgreSQL (docs/scaling.md): 1, 2 and 3 `affiliate-kit
// serve` processes (the built dist/; `npm run build` first) on the same database, taking
// POST /conversions (a purchase with a unique reference) from 16 keep-alive connections spread
// over them for a fixed time; purchases per second for each count, and per process. The load
// generator, the servers and PostgreSQL share this machine's cores: the figures say what the
// machine does in all, not what a process would do alone. Needs DATABASE_URL; it creates a
// database of its own beside the one named and drops it afterwards. Asserts nothing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const DATABASE_URL = process.env.DATABASE_URL
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const CONNECTIONS = 16
const WARMUP_MS = 2_000
const DURATION_MS = Number(process.env.SCALING_BENCH_SECONDS ?? 8) * 1000
const fmt = (value: number) => Math.round(value).toLocaleString('en')

interface Server {
  child: ChildProcess
  port: number
}

function startServe(database: string, config: string): Promise<Server> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--database', database, '--config', config, '--log-level', 'info'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    // The request log keeps coming: read and dropped once the server listens.
    let output: string | null = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      if (output === null) return
      output += chunk.toString()
      const match = output.match(/listening on http:\/\/127\.0\.0\.1:(\d+)\//)
      if (match) {
        output = null
        resolve({ child, port: Number(match[1]) })
      }
    })
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)))
  })
}

function post(agent: Agent, port: number, path: string, key: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path, agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Purchases per second from CONNECTIONS connections, spread evenly over the servers; answers per server. */
async function load(servers: Server[], key: string, affiliateId: number, tag: string): Promise<{ total: number; perServer: number[]; errors: number }> {
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: CONNECTIONS }))
  const answered = servers.map(() => 0)
  let counting = false
  let stop = false
  let sent = 0
  let errors = 0
  const worker = async (connection: number) => {
    const index = connection % servers.length
    while (!stop) {
      sent += 1
      const body = JSON.stringify({ type: 'purchase', affiliate_id: affiliateId, base_value: 19.99, reference: `${tag}_${sent}` })
      const { status, text } = await post(agents[index]!, servers[index]!.port, '/api/v1/conversions', key, body)
      if (status !== 201) {
        errors += 1
        if (errors === 1) console.log(`  first refusal: ${status} ${text.slice(0, 300)}`)
      }
      else if (counting) answered[index]! += 1
    }
  }
  const workers = Array.from({ length: CONNECTIONS }, (_, connection) => worker(connection))
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS))
  counting = true
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, DURATION_MS))
  counting = false
  const seconds = (performance.now() - started) / 1000
  stop = true
  await Promise.all(workers)
  for (const agent of agents) agent.destroy()
  return { total: answered.reduce((a, b) => a + b, 0) / seconds, perServer: answered.map((count) => count / seconds), errors }
}

if (!DATABASE_URL) {
  console.log('scaling: DATABASE_URL is not set, nothing measured')
} else {
  const name = `affiliate_kit_scaling_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(DATABASE_URL)
  url.pathname = `/${name}`
  const database = url.toString()
  const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-scaling-'))
  const config = join(dir, 'config.json')
  // The rate limit is set out of reach: the bench measures creates, not the limiter's refusals.
  writeFileSync(config, JSON.stringify({ currency: 'USD', rateLimit: { limit: 1_000_000_000, windowSeconds: 1 } }))
  const servers: Server[] = []
  try {
    execFileSync(process.execPath, [CLI, 'migrate', '--database', database], { stdio: 'ignore' })
    const key = execFileSync(process.execPath, [CLI, 'keys', 'create', '--database', database], { encoding: 'utf8' }).split('\n')[0]!.trim()
    console.log(`serve processes on one PostgreSQL: POST /conversions from ${CONNECTIONS} connections, ${DURATION_MS / 1000} s each; ${availableParallelism()} cores shared by the servers, PostgreSQL and this load generator`)
    let affiliateId = 0
    let one = 0
    for (let count = 1; count <= 3; count += 1) {
      while (servers.length < count) servers.push(await startServe(database, config))
      if (affiliateId === 0) {
        const created = await post(new Agent(), servers[0]!.port, '/api/v1/affiliates', key, JSON.stringify({ email: 'ann@example.com' }))
        if (created.status !== 201) throw new Error(`POST /affiliates answered ${created.status}: ${created.text}`)
        const answer = JSON.parse(created.text) as { id?: number; data?: { id: number } }
        affiliateId = answer.data?.id ?? answer.id!
      }
      const { total, perServer, errors } = await load(servers, key, affiliateId, `p${count}`)
      if (count === 1) one = total
      console.log(`  ${count} process${count === 1 ? '' : 'es'}: ${fmt(total)} purchases/s (${perServer.map(fmt).join(' + ')}); ${(total / one).toFixed(2)}x one process${errors ? `; ${errors} errors` : ''}`)
    }
  } finally {
    for (const server of servers) server.child.kill('SIGTERM')
    await Promise.all(servers.map((server) => new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)))))
    rmSync(dir, { recursive: true, force: true })
    await admin.query(`DROP DATABASE IF EXISTS ${name}`)
    await admin.end()
  }
}
