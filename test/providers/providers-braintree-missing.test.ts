// braintree is an optional peer dependency: without it affiliate-kit/braintree still loads, a
// request is a 500 reporting one line saying what to install, and the server's provider mount
// stops the start with that line (a CliError, printed without a stack).
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const child = join(dirname(fileURLToPath(import.meta.url)), '../support/providers/no-braintree-child.ts')
const MISSING = 'affiliate-kit/braintree needs the braintree package beside affiliate-kit: run "npm i braintree"'

describe('braintree handler without the braintree package', () => {
  it('loads; a request reports the one-line message; the server refuses to start with it', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 60_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ status: 500, errors: [MISSING], load: MISSING, mount: `CliError: ${MISSING}` })
  }, 60_000)
})
