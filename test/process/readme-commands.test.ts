// The README's "Two commands", run literally in a fresh clone of this repository's committed HEAD
// with the machine's npm (11): the server command must answer on its port with embedded PGlite,
// the test command must install and run the suite. The test command runs on a small subset:
// vitest.config.ts reads AFFILIATE_KIT_TEST_FILES, so the command text stays literal while the run
// cannot recurse into this file (and stays a few seconds instead of the whole suite again).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, run } from '../support/cli/process.js'

const root = new URL('../..', import.meta.url).pathname
const work = mkdtempSync(join(tmpdir(), 'affiliate-kit-readme-'))
// A clone for each command: they run at the same time (describe.concurrent), each installing
// (npm ci) and building what it needs, so the file takes the longer one's time instead of both.
const clone = join(work, 'affiliate-kit')
const testClone = join(work, 'affiliate-kit-test')

/** The commands of the README's "Two commands" block, without their comments. */
function twoCommands(readme: string): Array<{ command: string; comment: string }> {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Two commands\n'))!
  const block = section.match(/```sh\n([\s\S]*?)```/)![1]!
  return block
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [command, comment] = line.split(/\s+#\s+/)
      return { command: command!.trim(), comment: comment ?? '' }
    })
}

/** This machine's environment without what a fresh machine would not have set. */
function freshEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const skipped = /^(DATABASE_URL|PORT|HOST|AFFILIATE_KIT_.*|VITEST.*|NODE_ENV|NODE_OPTIONS|npm_.*|INIT_CWD)$/i
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !skipped.test(name))), ...extra }
}

beforeAll(() => {
  for (const dir of [clone, testClone]) execFileSync('git', ['clone', '--quiet', root, dir], { stdio: 'pipe' })
}, 60_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe.concurrent("the README's two commands, literally, in a fresh clone", () => {
  const commands = twoCommands(readFileSync(join(root, 'README.md'), 'utf8'))

  it('are two: the server first, then the tests', () => {
    expect(commands).toHaveLength(2)
    expect(commands[0]!.comment).toMatch(/start the server/)
    expect(commands[1]!.comment).toMatch(/test/)
    expect(execFileSync('npm', ['--version'], { encoding: 'utf8' })).toMatch(/^11\./)
  })

  it('the server command answers on its port with PGlite in ./affiliate-data, and stops on Ctrl-C', async () => {
    // PORT=0: the OS picks a free port (tests run in parallel); the command reads PORT.
    const server = run(['-c', commands[0]!.command], { command: ['sh'], cwd: clone, env: freshEnv({ PORT: '0' }), group: true })
    let url: string | undefined
    try {
      ;[, url] = await server.waitFor(/listening on (http:\/\/\S+)/, 240_000)
      const [, key] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)
      expect(server.output()).toContain(`storage: embedded PGlite in ${join(clone, 'affiliate-data')}`)
      const created = await api(url!, key!, 'POST', '/affiliates', { email: 'readme@example.com' })
      expect(created.status).toBe(201)
    } finally {
      // Ctrl-C: SIGINT to the whole process group (sh, npm, node); the server drains and exits.
      await server.stop()
    }
    await server.waitFor(/shutting down: draining/)
    const deadline = Date.now() + 15_000
    let refused = false
    while (!refused && Date.now() < deadline) {
      refused = await fetch(`${url}/affiliates`).then(() => false, () => true)
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(refused).toBe(true)
    expect(existsSync(join(clone, 'affiliate-data', 'PG_VERSION'))).toBe(true)
  }, 300_000)

  it('the test command installs and runs the suite (on a subset: memory runs, PostgreSQL is skipped without DATABASE_URL)', async () => {
    const tests = run(['-c', commands[1]!.command], {
      command: ['sh'],
      cwd: testClone,
      env: freshEnv({ AFFILIATE_KIT_TEST_FILES: 'test/adapters/memory/memory.test.ts,test/adapters/postgres/postgres.test.ts' }),
    })
    const code = await tests.exited
    const output = tests.output().replace(/\x1b\[[0-9;]*m/g, '') // vitest's colours
    expect(output).toMatch(/Test Files +1 passed \| 1 skipped \(2\)/)
    expect(code).toBe(0)
  }, 600_000)
})
