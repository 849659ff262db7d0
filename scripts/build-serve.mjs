// `npm start`: builds only what `affiliate-kit serve` needs (<outDir>/cli/main.js, ESM, no
// declaration files), and only when the sources changed since the last such build. The full
// library build (`npm run build`: both formats, declarations, OpenAPI, snippet budget) is for
// packing and CI. The tests build the same command into .test-build/ (test/support/global-setup.ts).
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'tsup'
import { isCurrent, root, sourcesHash } from './sources-hash.mjs'

const outDir = process.argv[2] ?? 'dist'
const stampFile = join(root, outDir, '.serve-build')
if (existsSync(join(root, outDir, 'cli', 'main.js')) && isCurrent(stampFile)) process.exit(0)

const started = Date.now()
const hash = sourcesHash()
await build({
  entry: { 'cli/main': join(root, 'src/cli/main.ts') },
  outDir: join(root, outDir),
  format: ['esm'],
  dts: false,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  silent: true,
  config: false,
})
writeFileSync(stampFile, hash)
console.log(`built ${outDir}/cli/main.js for serve in ${((Date.now() - started) / 1000).toFixed(1)} s`)
