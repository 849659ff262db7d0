// The hot-rows soak (the built dist/; `npm run build` first): the mixed load of bench/mixed-load.ts
// on PostgreSQL (one serve at SOAK_PG_RATE, then two at SOAK_PG2_RATE; needs DATABASE_URL) and on
// PGlite (one serve at SOAK_PGLITE_RATE), each for SOAK_SECONDS, one line per minute: rate
// answered, p50 / p99, 5xx, RSS, deadlocks. Targets: 0 deadlocks, 0 5xx, the last minute's p99
// within 2x of the first's. A rate of 0 leaves that run out.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freshDatabase, runMixedLoad, windowLine, type Window } from './mixed-load.js'

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const seconds = Number(process.env.SOAK_SECONDS ?? 480)
const windowSeconds = Math.min(60, seconds)
const DATABASE_URL = process.env.DATABASE_URL

function summary(label: string, windows: Window[]): void {
  const full = windows.filter((window) => window.answered > 0)
  const [first, last] = [full[0], full.at(-1)]
  const sum = (field: 'serverErrors' | 'deadlocks' | 'failed') => windows.reduce((total, window) => total + window[field], 0)
  const p99 = first && last ? (last.p99 / Math.max(1, first.p99)).toFixed(2) : 'n/a'
  console.log(`${label}: deadlocks ${sum('deadlocks')}, 5xx ${sum('serverErrors')}, failed ${sum('failed')}, last window's p99 / first's ${p99} (target <= 2)`)
}

async function soak(label: string, database: string, processes: number, rate: number): Promise<void> {
  if (rate === 0) return
  console.log(`\n${label}: ${rate} requests/s for ${seconds} s`)
  const run = await runMixedLoad({ cli: CLI, database, processes, rate, seconds, windowSeconds, report: (window) => console.log(windowLine(window)) })
  await run.stop()
  summary(label, run.windows)
}

if (DATABASE_URL) {
  for (const [label, processes, rate] of [
    ['PostgreSQL, one serve', 1, Number(process.env.SOAK_PG_RATE ?? 150)],
    ['PostgreSQL, two serve processes', 2, Number(process.env.SOAK_PG2_RATE ?? 150)],
  ] as const) {
    const database = await freshDatabase(DATABASE_URL)
    try {
      await soak(label, database.url, processes, rate)
    } finally {
      await database.drop()
    }
  }
} else console.log('PostgreSQL skipped: DATABASE_URL is not set')

const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-soak-'))
try {
  await soak('PGlite, one serve', `pglite:${join(dir, 'data')}`, 1, Number(process.env.SOAK_PGLITE_RATE ?? 100))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
