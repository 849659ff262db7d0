// Requests per second through toNodeHandler on node:http (memory adapter, the built dist/;
// `npm run build` first): GET /affiliates/:email and POST /conversions, each next to a bare
// node:http JSON hello server answering the same request in the same run, plus each server's CPU
// time per request. POST /conversions is also set beside a hand-written node:http create server
// (read the body, parse it, check the key, `program.conversions.create`, stringify): what the same
// create costs without the handler's routing, validation and shaping. Each server runs in its own
// child process; this process generates the load (keep-alive agent, a fixed number of requests in
// flight, fixed duration), interleaving the loads over several rounds and printing medians.
// Asserts nothing.
import { fork } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { measure, median, type BenchServer, type Figure, type Load } from './load.js'

const CONCURRENCY = 32
const WARMUP_MS = 300
const DURATION_MS = 1200
/**
 * Rounds interleave the loads so a busy machine slows all of them alike; each library figure is
 * compared with its bare twin from the same round, and medians over the rounds are shown.
 */
const ROUNDS = 8

type Kind = 'bare' | 'library' | 'handwritten'

/** A memory program with an API key, Ann (read by the GET) and Bob (the POST's buyer): the same in every server that creates. */
async function seededProgram() {
  const { memoryStorage } = await import('../dist/adapters/memory.js')
  const { createAffiliateProgram } = await import('../dist/index.js')
  const program = await createAffiliateProgram({ storage: memoryStorage() })
  const { key } = await program.keys.create()
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
  const buyer = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB1' })
  return { program, key, buyerId: buyer.id }
}

async function serve(kind: Kind): Promise<void> {
  let server
  let extra: Record<string, unknown> = {}
  if (kind === 'bare') {
    const body = JSON.stringify({ hello: 'world' })
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    })
  } else if (kind === 'handwritten') {
    const { program, key, buyerId } = await seededProgram()
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', async () => {
        if (req.headers.authorization !== `Bearer ${key}`) return void res.writeHead(401).end()
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: 'purchase'; affiliate_id: number; base_value: number }
        const conversion = await program.conversions.create({ type: input.type, affiliateId: input.affiliate_id, baseValue: input.base_value })
        const body = JSON.stringify(conversion)
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
        res.end(body)
      })
    })
    extra = { key, buyerId }
  } else {
    const { createHandler, toNodeHandler } = await import('../dist/http/index.js')
    const { program, key, buyerId } = await seededProgram()
    // The limiter stays on (its cost is part of every request), with room for the whole run.
    // BENCH_OPS=1 adds what the standalone server runs with: a JSON request log (stdout, here /dev/null) and metrics.
    const { createLogger } = await import('../dist/index.js')
    const operations = process.env.BENCH_OPS ? { logger: createLogger({ format: 'json' }), metrics: true } : {}
    server = createServer(toNodeHandler(createHandler(program, { rateLimit: { limit: 1_000_000_000 }, ...operations })))
    extra = { key, buyerId }
  }
  // The parent asks for this process's CPU time around each measurement.
  process.on('message', () => process.send!(process.cpuUsage()))
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, ...extra }))
}

// BENCH_PROFILE=1 writes a CPU profile of the library server to /tmp/prof.
async function startChild(kind: Kind): Promise<Server> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', kind], { execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE && kind === 'library' ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])], stdio: process.env.BENCH_OPS && kind === 'library' ? ['inherit', 'ignore', 'inherit', 'ipc'] : 'inherit' })
  const info = await new Promise<{ port: number; key?: string; buyerId?: number }>((resolve) => child.once('message', resolve as never))
  return { child, ...info }
}

interface Server extends BenchServer {
  key?: string
  buyerId?: number
}

const SHAPE = { concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS }

const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`.padStart(4)

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${CONCURRENCY} in flight, ${ROUNDS} rounds of ${DURATION_MS / 1000} s per figure after ${WARMUP_MS / 1000} s warm-up`)
  const bare = await startChild('bare')
  const lib = await startChild('library')
  const handwritten = await startChild('handwritten')
  const auth = { authorization: `Bearer ${lib.key}` }
  const get: Load = { method: 'GET', path: '/api/v1/affiliates/ann%40example.com', headers: auth }
  const post: Load = {
    method: 'POST',
    path: '/api/v1/conversions',
    headers: { ...auth, 'content-type': 'application/json' },
    body: () => JSON.stringify({ type: 'purchase', affiliate_id: lib.buyerId, base_value: 19.99 }),
  }
  // The bare server answers the very same requests (it reads nothing): what is left between a
  // library figure and its bare twin is what the library costs, not what the load generator does.
  // In pairs: a bare baseline, then the library figure compared with it (its twin).
  const loads: [string, Server, Load][] = [
    ['bare JSON hello, GET (baseline)', bare, { ...get, path: '/' }],
    ['GET /affiliates/:email (toNodeHandler)', lib, get],
    ['bare JSON hello, same POST (baseline)', bare, { ...post, path: '/' }],
    ['POST /conversions (toNodeHandler)', lib, post],
    ['hand-written create, same POST', handwritten, { ...post, headers: { ...post.headers, authorization: `Bearer ${handwritten.key}` } }],
  ]
  const results = loads.map(() => [] as Figure[])
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, [, server, load]] of loads.entries()) results[index]!.push(await measure(server, load, SHAPE))
  }
  for (const server of [bare, lib, handwritten]) server.child.kill('SIGINT')
  const bareGet = results[0]!
  for (const [index, [name]] of loads.slice(0, 4).entries()) {
    const rounds = results[index]!
    const twin = results[index % 2 === 0 ? index : index - 1]!
    const rps = median(rounds.map((figure) => figure.rps))
    const cpuUs = median(rounds.map((figure) => figure.cpuUs))
    // Per-round ratios: both figures of a ratio were measured seconds apart.
    const ofTwin = median(rounds.map((figure, round) => figure.rps / twin[round]!.rps))
    const ofBareGet = median(rounds.map((figure, round) => figure.rps / bareGet[round]!.rps))
    const cpuRatio = median(rounds.map((figure, round) => figure.cpuUs / twin[round]!.cpuUs))
    const compared = index % 2 === 0 ? ''.padEnd(44) : `${percent(ofTwin)} of its bare twin, ${percent(ofBareGet)} of bare GET`
    console.log(`${name.padEnd(40)} ${rps.toFixed(0).padStart(6)} req/s  ${compared}   server CPU ${cpuUs.toFixed(1).padStart(5)} µs/request (${cpuRatio.toFixed(2)}x bare)`)
  }
  const [barePost, libraryPost, handwrittenPost] = [results[2]!, results[3]!, results[4]!]
  const ofHandwritten = median(libraryPost.map((figure, round) => figure.rps / handwrittenPost[round]!.rps))
  const handwrittenOfBare = median(handwrittenPost.map((figure, round) => figure.rps / barePost[round]!.rps))
  const cpuOfHandwritten = median(libraryPost.map((figure, round) => figure.cpuUs / handwrittenPost[round]!.cpuUs))
  const handwrittenCpu = median(handwrittenPost.map((figure) => figure.cpuUs))
  console.log(
    `${loads[4]![0].padEnd(40)} ${median(handwrittenPost.map((figure) => figure.rps)).toFixed(0).padStart(6)} req/s  ${percent(handwrittenOfBare)} of the bare POST twin; POST /conversions is ${percent(ofHandwritten)} of it   server CPU ${handwrittenCpu.toFixed(1).padStart(5)} µs/request (library ${cpuOfHandwritten.toFixed(2)}x of it)`,
  )
  console.log(`targets: GET at least 60% of its bare twin; POST /conversions at least 85% of its bare twin. Medians of ${ROUNDS} rounds; req/s come from two processes sharing 2 cores, server CPU per request does not depend on the load generator.`)
}

if (process.argv[2] === 'serve') {
  process.on('SIGINT', () => process.exit(0))
  await serve(process.argv[3] as Kind)
}
else await main()
