// npm run bench: runs every bench/*.bench.ts in its own process, one after another, and prints
// what each reports. Benchmarks print figures and ratios; they assert nothing.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv[2]
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts') && (!only || file.includes(only)))
  .sort()

// Figures are only comparable on a quiet machine: the load average says whether this one was.
console.log(`load average at start: ${loadavg().map((load) => load.toFixed(2)).join(', ')} (1, 5, 15 min); ${availableParallelism()} cores`)
for (const file of files) {
  console.log(`\n## ${file}`)
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, file)], {
    stdio: 'inherit',
    env: process.env,
  })
  if (result.status !== 0) console.log(`(${file} exited with ${result.status})`)
}
