// What a standalone user needs to get affiliates going, from the command line: `keys create
// --publishable` (an rgp_ key for the browser snippet) and `portal link <email>` (a one-time
// portal sign-in link built from portal.publicUrl only), through the server that holds the
// PGlite directory, or from the database with --config when none holds it (also beside a server
// on PostgreSQL, which then signs the affiliate in with it); refused with one line
// when the portal is off or has no public URL.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, freePort, run, runToEnd } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-cli-portal-link')
const KEY = `rgk_${'Portal1Link2'.repeat(3)}xyz`
const finished = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => runToEnd(args, { cwd, env })

/** Opens a sign-in link as a browser would and presses "Sign in": the answer of that POST. */
async function redeem(link: string): Promise<Response> {
  const page = await fetch(link)
  const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  const token = new URL(link).searchParams.get('token') ?? ''
  return fetch(new URL('/portal/sign-in', link), {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, token }).toString(),
    redirect: 'manual',
  })
}

function writeConfig(dir: string, config: unknown): string {
  const path = join(dir, 'config.json')
  writeFileSync(path, JSON.stringify(config))
  return path
}

describe('affiliate-kit keys create --publishable and portal link', () => {
  it('make a publishable key and sign-in links through the running server, and links from the database with --config when it is stopped', async () => {
    const dir = tempDir()
    const database = `pglite:${migratedDataDir(join(dir, 'data'))}`
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    writeConfig(dir, { portal: { enabled: true, publicUrl }, tracking: { landingUrl: 'http://localhost:9/' } })
    const serve = () => run(['serve', '--port', String(port), '--database', database, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    let server = serve()
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    expect(server.output()).not.toContain('portal.publicUrl is not set')
    expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)

    const created = await finished(['keys', 'create', '--publishable', '--name', 'website', '--database', database], dir)
    expect(created.code).toBe(0)
    const [publishable] = created.output.match(/^rgp_[A-Za-z0-9]{20,64}$/m)!
    expect(created.output).toMatch(/\(id 2, publishable: put it in the snippet's data-key; shown once\)$/)
    expect((await finished(['keys', 'list', '--database', database], dir)).output).toMatch(/\n2\trgp_\w{4}…\tpublishable\twebsite\tactive$/)
    const click = await fetch(`${publicUrl}/r/-/clicks`, {
      method: 'POST',
      // A browser's user agent: tracking drops bots, and Node's fetch is one.
      headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json', origin: 'http://localhost:9', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' },
      body: JSON.stringify({ referral_code: 'ANN' }),
    })
    // The server's click buffer takes it: 202, counted when written.
    expect(click.status).toBe(202)
    expect((await api(url!, publishable!, 'GET', '/affiliates')).status).toBe(403)
    expect(await finished(['keys', 'create', '--publishable', '--scopes', '*', '--database', database], dir)).toEqual({
      code: 2,
      output: 'affiliate-kit: --publishable keys have no scopes: leave out --scopes',
    })

    const made = await finished(['portal', 'link', 'ann@example.com', '--database', database], dir)
    expect(made.code).toBe(0)
    const [link] = made.output.match(/^\S+$/m)!
    expect(link).toMatch(new RegExp(`^${publicUrl}/portal/sign-in\\?token=[A-Za-z0-9_-]{20,}$`))
    expect(made.output).toMatch(/\n\(works once, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\)$/)
    const signedIn = await redeem(link!)
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get('location')).toBe('/portal/')
    expect((await redeem(link!)).status).toBe(400)
    expect(await finished(['portal', 'link', 'nobody@example.com', '--database', database], dir)).toEqual({ code: 1, output: 'affiliate-kit: affiliate not found' })
    expect(await server.stop()).toBe(0)

    // No server holds the directory: the link comes from the database, with the server's config.
    expect(await finished(['portal', 'link', 'ann@example.com', '--database', database], dir)).toEqual({
      code: 1,
      output: "affiliate-kit: portal link needs the server's config file (--config <file>): the link is built from its portal.publicUrl",
    })
    const offline = await finished(['portal', 'link', 'ann@example.com', '--database', database, '--config', 'config.json'], dir)
    expect(offline.code).toBe(0)
    const [offlineLink] = offline.output.match(/^\S+$/m)!
    expect(offlineLink).toMatch(new RegExp(`^${publicUrl}/portal/sign-in\\?token=`))
    server = serve()
    await server.waitFor(/listening on/)
    expect((await redeem(offlineLink!)).status).toBe(303)
    expect(await server.stop()).toBe(0)
  }, 300_000)

  it('refuse a link with one line when the portal has no public URL (through the server) or is off (from the database)', async () => {
    const dir = tempDir()
    const database = `pglite:${migratedDataDir(join(dir, 'data'))}`
    writeConfig(dir, { portal: { enabled: true } })
    const server = run(['serve', '--port', '0', '--database', database, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    await server.waitFor(/portal\.publicUrl is not set: sign-in links \(portal link, the console, the API\) are refused until it is/)
    expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com' })).status).toBe(201)
    const refused = await finished(['portal', 'link', 'ann@example.com', '--database', database], dir)
    expect(refused).toEqual({
      code: 1,
      output: 'affiliate-kit: the affiliate portal has no public URL to build sign-in links from: set portal.publicUrl (such as https://partners.example.com)',
    })
    const rest = await api(url!, KEY, 'POST', '/affiliates/ann%40example.com/portal-link')
    expect(rest.status).toBe(409)
    expect(await server.stop()).toBe(0)

    writeConfig(dir, { portal: { enabled: false, publicUrl: 'https://partners.example.com' } })
    const off = await finished(['portal', 'link', 'ann@example.com', '--database', database, '--config', 'config.json'], dir)
    expect(off.code).toBe(1)
    expect(off.output).toMatch(/^affiliate-kit: there is no affiliate portal here to sign in to: enable it \(config portal\.enabled/)
    expect(off.output).not.toContain('token=')
  }, 300_000)
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`affiliate-kit portal link beside a server on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('makes a link from the database with the config, which the running server signs the affiliate in with', async () => {
    const db = await freshDatabase()
    try {
      const dir = tempDir()
      const env = { DATABASE_URL: db.url }
      const port = await freePort()
      const publicUrl = `http://127.0.0.1:${port}`
      writeConfig(dir, { portal: { enabled: true, publicUrl } })
      const server = run(['serve', '--port', String(port), '--config', 'config.json'], { cwd: dir, env: { ...env, AFFILIATE_KIT_API_KEY: KEY } })
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com' })).status).toBe(201)
      expect((await finished(['portal', 'link', 'ann@example.com'], dir, env)).output).toBe(
        "affiliate-kit: portal link needs the server's config file (--config <file>): the link is built from its portal.publicUrl",
      )
      const made = await finished(['portal', 'link', 'ann@example.com', '--config', 'config.json'], dir, env)
      expect(made.code).toBe(0)
      const [link] = made.output.match(/^\S+$/m)!
      expect(link).toMatch(new RegExp(`^${publicUrl}/portal/sign-in\\?token=`))
      expect((await redeem(link!)).status).toBe(303)
      expect(await server.stop()).toBe(0)
    } finally {
      await db.drop()
    }
  }, 300_000)
})
