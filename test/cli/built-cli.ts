// The CLI as users run it: src/cli/main.ts bundled by tsup (ESM, no declarations) into a
// directory of its own under .test-build/ (inside the project, so packages resolve from
// node_modules), for black-box tests that start `node <dir>/cli/main.js serve`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'tsup'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Builds the CLI; resolves with the command that runs it and a function removing the build. */
export async function builtCli(): Promise<{ command: string[]; remove: () => void }> {
  mkdirSync(join(ROOT, '.test-build'), { recursive: true })
  const outDir = mkdtempSync(join(ROOT, '.test-build', 'cli-'))
  await build({
    entry: { 'cli/main': join(ROOT, 'src/cli/main.ts') },
    outDir,
    format: ['esm'],
    dts: false,
    target: 'node20',
    splitting: false,
    silent: true,
    config: false,
  })
  return { command: [process.execPath, join(outDir, 'cli/main.js')], remove: () => rmSync(outDir, { recursive: true, force: true }) }
}
