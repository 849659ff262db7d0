// `affiliate-kit serve` (the built dist/; `npm run build` first) from process start to its first
// HTTP answer, next to the engine's own open of the same PGlite directory from process start to
// its first query (node's own start-up is in both). Once on a fresh directory, once on an existing
// one; rounds alternate between the two commands and medians are reported. Target: <= 1.1x.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROUNDS = 5
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const ENGINE_OPEN = `import { PGlite } from '@electric-sql/pglite'
const db = await PGlite.create(process.argv[1])
await db.query('SELECT 1')
console.log('ready')
await db.close()`

/** Milliseconds from spawning `args` until a stdout line matches `ready`, then `answer(match)` resolves. */
function timeUntil(args: string[], ready: RegExp, answer: (match: RegExpMatchArray) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: fileURLToPath(new URL('..', import.meta.url)) })
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', async (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(ready)
      if (!match) return
      output = ''
      try {
        await answer(match)
        const elapsed = performance.now() - started
        child.once('exit', () => resolve(elapsed))
        child.kill('SIGTERM')
      } catch (error) {
        child.kill('SIGKILL')
        reject(error)
      }
    })
    child.once('error', reject)
  })
}

const serve = (dataDir: string) =>
  timeUntil(
    [CLI, 'serve', '--port', '0', '--database', `pglite:${dataDir}`, '--log-level', 'info'],
    /listening on (http:\/\/\S+?)\/api\/v1/,
    (match) => fetch(`${match[1]}/api/v1/affiliates`).then((response) => response.arrayBuffer()),
  )

const engineOpen = (dataDir: string) => timeUntil(['--input-type=module', '-e', ENGINE_OPEN, dataDir], /ready/, async () => {})

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function compare(label: string, fresh: boolean): Promise<void> {
  const serveTimes: number[] = []
  const engineTimes: number[] = []
  const existing = mkdtempSync(join(tmpdir(), 'affiliate-kit-serve-bench-'))
  if (!fresh) await serve(join(existing, 'data'))
  for (let round = 0; round < ROUNDS; round += 1) {
    const parent = fresh ? mkdtempSync(join(tmpdir(), 'affiliate-kit-serve-bench-')) : existing
    const [serveDir, engineDir] = fresh ? [join(parent, 'serve'), join(parent, 'engine')] : [join(parent, 'data'), join(parent, 'data')]
    serveTimes.push(await serve(serveDir))
    engineTimes.push(await engineOpen(engineDir))
    if (fresh) rmSync(parent, { recursive: true, force: true })
  }
  rmSync(existing, { recursive: true, force: true })
  const [serveMs, engineMs] = [median(serveTimes), median(engineTimes)]
  console.log(`serve start to first answer, ${label}: ${serveMs.toFixed(0)} ms median of ${ROUNDS}`)
  console.log(`  baseline, PGlite's own open and first query of the same directory: ${engineMs.toFixed(0)} ms; ${(serveMs / engineMs).toFixed(2)}x (target <= 1.1x)`)
}

await compare('fresh directory', true)
await compare('existing directory', false)
