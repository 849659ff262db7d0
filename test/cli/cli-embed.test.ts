// The embedded dashboard from the standalone server (docs/embed.md): `portal.embed.allowedOrigins`
// in the config turns it on; POST /api/v1/embed-tokens answers the dashboard's URL on
// portal.publicUrl, which opens the affiliate's dashboard framable by those origins only. A bad
// origin stops the server at start with one line.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, freePort, run, runToEnd } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'

const tempDir = tempDirs('affiliate-kit-cli-embed')
const KEY = `rgk_${'Embed1Token2'.repeat(3)}xyz`

describe('affiliate-kit serve with portal.embed', () => {
  it('makes embed tokens whose URL opens the dashboard, framable by the configured origins only', async () => {
    const dir = tempDir()
    const database = `pglite:${migratedDataDir(join(dir, 'data'))}`
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ portal: { enabled: true, publicUrl, embed: { allowedOrigins: ['https://app.example.com'] } } }))
    const server = run(['serve', '--port', String(port), '--database', database, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const created = await api(url!, KEY, 'POST', '/embed-tokens', { email: 'ann@example.com', name: 'Ann', ttl_seconds: 900 })
      expect(created.status).toBe(201)
      const { token, url: dashboard } = (created.body as { data: { token: string; url: string } }).data
      expect(token).toMatch(/^ake_\d+\.\d+\.0\.[A-Za-z0-9_-]{43}$/)
      expect(dashboard).toBe(`${publicUrl}/portal/embed?token=${encodeURIComponent(token)}`)
      const page = await fetch(dashboard)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toContain('frame-ancestors https://app.example.com;')
      expect(page.headers.getSetCookie()).toEqual([])
      expect(await page.text()).toContain('data-section="earnings"')
      expect((await api(url!, KEY, 'GET', '/affiliates/ann@example.com')).body).toMatchObject({ data: { user_email: 'ann@example.com', status: 'active' } })
      expect((await api(url!, KEY, 'POST', '/embed-tokens', { email: 'ann@example.com', ttl_seconds: 90_000 })).status).toBe(400)
    } finally {
      await server.stop()
    }
  })

  it('refuses to start with an origin that has a path', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ portal: { enabled: true, embed: { allowedOrigins: ['https://app.example.com/dashboard'] } } }))
    const result = await runToEnd(['serve', '--port', String(await freePort()), '--database', 'memory', '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    expect(result.code).not.toBe(0)
    expect(result.output).toContain('embed.allowedOrigins: https://app.example.com/dashboard must be an origin')
  })
})
