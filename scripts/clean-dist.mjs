// Before the build: empties dist/ once (the two tsup builds run side by side, so neither may clean it).
import { rmSync } from 'node:fs'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
