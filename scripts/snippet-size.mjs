// After the build: prints the browser snippet's size, minified and gzipped, against its 2 KB budget.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

export const SNIPPET_BUDGET_BYTES = 2048
const code = readFileSync(new URL('../dist/browser/index.js', import.meta.url))
const gzipped = gzipSync(code, { level: 9 }).byteLength
console.log(`affiliate-kit/browser: ${code.byteLength} B minified, ${gzipped} B min+gzip (budget ${SNIPPET_BUDGET_BYTES} B)`)
if (gzipped > SNIPPET_BUDGET_BYTES) {
  console.error('affiliate-kit/browser is over its size budget')
  process.exit(1)
}
