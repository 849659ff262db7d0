// Every failure of the affiliate-kit command is one line on stderr saying what to do, with no
// stack and no password; --version and per-command --help answer; a mistyped command touches
// nothing; a port in use stops serve before it opens the database or makes (and prints) an API key.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort, runToEnd } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { DATABASE_URL } from '../support/sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-cli-errors')
const finished = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => runToEnd(args, { ...options, cwd: options.cwd ?? tempDir() })

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

describe('affiliate-kit usage errors, --version, --help', () => {
  it.each([
    [['srve'], 2, 'affiliate-kit: unknown command "srve"; run "affiliate-kit --help"'],
    [['keys', 'delete', '3'], 2, 'affiliate-kit: unknown command "keys delete"; run "affiliate-kit keys --help"'],
    [['serve', '--prot', '9000'], 2, 'affiliate-kit: unknown option --prot; run "affiliate-kit serve --help"'],
    [['serve', '--port'], 2, 'affiliate-kit: option --port needs a value; run "affiliate-kit serve --help"'],
    [['serve', '--database', '--port', '1'], 2, 'affiliate-kit: option --database needs a value; run "affiliate-kit serve --help"'],
    [['keys', 'list', '--port', '1'], 2, 'affiliate-kit: unknown option --port; run "affiliate-kit keys list --help"'],
    [['keys', 'revoke'], 2, 'affiliate-kit: missing <id>; run "affiliate-kit keys revoke --help"'],
    [['keys', 'revoke', '1', '2'], 2, 'affiliate-kit: unexpected argument "2"; run "affiliate-kit keys revoke --help"'],
    [['serve', '--port', '99999'], 1, 'affiliate-kit: --port must be 0 to 65535; got "99999"'],
    [['keys', 'revoke', '99', '--database', 'memory'], 1, 'affiliate-kit: no API key has id 99; "affiliate-kit keys list" shows the ids'],
    [['--version'], 0, VERSION],
  ])('%j exits %i with one line and creates no data directory', async (args, code, line) => {
    const cwd = tempDir()
    expect(await finished(args, { cwd })).toEqual({ code, output: line })
    expect(readdirSync(cwd)).toEqual([])
  })

  it.each([
    [['--help'], /^usage:\n  affiliate-kit serve .*\n  affiliate-kit keys create .*--version/s],
    [['serve', '--help'], /^usage: affiliate-kit serve \[--port 8787\].*env PORT, default 8787.*env HOST.*env DATABASE_URL.*AFFILIATE_KIT_API_KEY/s],
    [['keys', '--help'], /^usage:\n  affiliate-kit keys create .*\n  affiliate-kit keys list .*\n  affiliate-kit keys revoke <id>/],
    [['keys', 'create', '--help'], /^usage: affiliate-kit keys create .*--scopes <a,b> +\* \(default\) or any of: affiliates:read/s],
    [['migrate', '-h'], /^usage: affiliate-kit migrate/],
  ])('%j prints its help and exits 0', async (args, help) => {
    const result = await finished(args)
    expect(result.code).toBe(0)
    expect(result.output).toMatch(help)
  })
})

describe('affiliate-kit runtime errors', () => {
  it('a port in use stops serve with one line, before the database is opened (nothing migrated) or any API key is made or printed', async () => {
    const cwd = tempDir()
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      const database = `pglite:${join(cwd, 'data')}`
      expect(await finished(['serve', '--port', String(port), '--database', database], { cwd })).toEqual({
        code: 1,
        output: `affiliate-kit: 127.0.0.1:${port} is already in use; stop the program using it, or choose another port with --port (or PORT)`,
      })
      // The port is bound first: the embedded database was not even created, let alone migrated.
      expect(existsSync(join(cwd, 'data'))).toBe(false)
      expect(await finished(['keys', 'list', '--database', database])).toEqual({ code: 0, output: '' })
    } finally {
      taken.close()
    }
  }, 120_000)

  it('a refused PostgreSQL connection is one line without the password', async () => {
    const port = await freePort()
    const result = await finished(['migrate', '--database', `postgres://ann:S3cret-pw@127.0.0.1:${port}/shop`])
    expect(result).toEqual({
      code: 1,
      output: `affiliate-kit: cannot connect to PostgreSQL at 127.0.0.1:${port}: connection refused; is PostgreSQL running, and are the host and port in the URL right?`,
    })
  })

  it.each([
    ['postgres://ann:pa#ss@127.0.0.1:5432/shop', 'postgres://ann:***@127.0.0.1:5432/shop'],
    ['postgres://ann:p@ss w0rd@db:port/shop', 'postgres://ann:***@db:port/shop'],
  ])('a malformed URL %s is named with its password masked, from --database and from DATABASE_URL', async (url, shown) => {
    const line = `affiliate-kit: the database URL ${shown} is malformed; percent-encode special characters in the user and password (@ as %40, : as %3A, / as %2F, # as %23)`
    expect(await finished(['serve', '--port', '0', '--database', url])).toEqual({ code: 1, output: line })
    expect(await finished(['keys', 'list'], { env: { DATABASE_URL: url } })).toEqual({ code: 1, output: line })
  })

  it.skipIf(!DATABASE_URL)('an unknown database or role is one line naming it and what to do, without the password', async () => {
    const url = new URL(DATABASE_URL!)
    url.pathname = '/affiliate_kit_no_such_database'
    const database = await finished(['migrate', '--database', url.toString()])
    expect(database).toEqual({
      code: 1,
      output: `affiliate-kit: PostgreSQL at ${url.host}: database "affiliate_kit_no_such_database" does not exist; create it (createdb affiliate_kit_no_such_database) or fix the URL`,
    })
    const role = new URL(DATABASE_URL!)
    role.username = 'affiliate_kit_no_such_role'
    role.password = 'Hunter2-secret'
    const refused = await finished(['serve', '--port', '0'], { env: { DATABASE_URL: role.toString() } })
    expect(refused.code).toBe(1)
    expect(refused.output).toMatch(/^affiliate-kit: PostgreSQL at [^\n]+: (role "affiliate_kit_no_such_role" does not exist|password authentication failed for user "affiliate_kit_no_such_role"); fix the user or password in the URL$/)
    expect(refused.output).not.toContain('Hunter2')
  })

  it('a missing --config file is one line naming its full path and what to create, not a raw ENOENT', async () => {
    const cwd = tempDir()
    const { code, output } = await finished(['serve', '--database', 'memory', '--config', 'affiliate.config.json'], { cwd })
    expect(code).toBe(1)
    expect(output).toBe(
      `affiliate-kit: config file ${join(cwd, 'affiliate.config.json')} does not exist: create it (copy affiliate.config.example.json from the affiliate-kit package; every key is in its README, "Configuration") or leave out --config`,
    )
    expect(existsSync(new URL('../../affiliate.config.example.json', import.meta.url))).toBe(true)
  })

  it('a bad PORT is named as such', async () => {
    expect(await finished(['serve', '--database', 'memory'], { env: { PORT: 'http' } })).toEqual({ code: 1, output: 'affiliate-kit: PORT must be 0 to 65535; got "http"' })
  })

  it('an unknown --database names the accepted forms and hides a password', async () => {
    expect(await finished(['serve', '--database', 'mysql://root:Hunter2@db/shop'])).toEqual({
      code: 1,
      output: 'affiliate-kit: --database must be memory, a postgres:// URL or pglite:<dir>; got "mysql://root:***@db/shop"',
    })
  })
})

describe('affiliate-kit with a mistyped command', () => {
  it.each([[['srve']], [['keys', 'creat']], [['migrat']]])('%j creates no ./affiliate-data', async (args) => {
    const cwd = tempDir()
    expect((await finished(args, { cwd })).code).toBe(2)
    expect(existsSync(join(cwd, 'affiliate-data'))).toBe(false)
  })
})
