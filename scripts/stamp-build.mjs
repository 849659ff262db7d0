// After the full build: stamps dist/ with the sources it was built from, so the pack test can
// pack it as it is (npm pack --ignore-scripts) instead of building it again.
import { writeFileSync } from 'node:fs'
import { root, sourcesHash } from './sources-hash.mjs'

writeFileSync(new URL('dist/.full-build', `file://${root}`), sourcesHash())
