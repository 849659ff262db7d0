// `affiliate-kit serve` with `admin: { enabled: true }`: the admin console at /admin beside the
// API (sign-in with the server's key, the audit log over REST); without the config, /admin is 404.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { signInWithKey } from '../support/admin/helpers.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { Agent } from '../support/portal/helpers.js'

const tempDir = tempDirs('affiliate-kit-cli-admin')
const KEY = `rgk_${'Adm0Test1Key2'.repeat(3)}xyz`

/** Starts `serve` on memory storage with this config file; resolves with the server's root URL, the API's URL and a stop. */
async function serve(config: object) {
  const dir = tempDir()
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
  const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
  const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
  return { root: url!.replace(/\/api\/v1$/, ''), url: url!, server }
}

describe('affiliate-kit serve: admin console', () => {
  it('serves the console at /admin with the config, signs in with the server key and logs it', async () => {
    const { root, url, server } = await serve({ admin: { enabled: true } })
    await server.waitFor(/admin console at http:\/\/\S+\/admin/)
    expect((await api(url, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
    const agent = new Agent((request) => fetch(request), root)
    const first = await agent.get('/admin/')
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/admin/sign-in')
    const signedIn = await signInWithKey(agent, KEY)
    expect(signedIn.status).toBe(303)
    const page = await agent.get('/admin/')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('data-affiliate="ann@example.com"')
    const log = await api(url, KEY, 'GET', '/audit-log')
    expect(log.status).toBe(200)
    expect(log.body!.data.map((entry: { action: string }) => entry.action)).toEqual(['console.sign_in'])
    expect(await server.stop()).toBe(0)
  }, 60_000)

  it('answers 404 at /admin without the config', async () => {
    const { root, url, server } = await serve({})
    for (const path of ['/admin', '/admin/', '/admin/sign-in']) expect([path, (await fetch(`${root}${path}`, { redirect: 'manual' })).status]).toEqual([path, 404])
    expect((await api(url, KEY, 'GET', '/affiliates')).status).toBe(200)
    expect(server.output()).not.toContain('admin console at')
    expect(await server.stop()).toBe(0)
  }, 60_000)
})
