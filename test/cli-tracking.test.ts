// `affiliate-kit serve` with a `tracking` config: referral links and the snippet beside the API
// (bad tracking config is among cli.test.ts's refused configs).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, run } from './cli/process.js'
import { tempDirs } from './cli/temp-dirs.js'

const tempDir = tempDirs('affiliate-kit-cli-tracking')
const KEY = `rgk_${'Trk0Test1Key2'.repeat(3)}xyz`
/** A browser's user agent: scripts (node's fetch says "node") count nothing. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe('affiliate-kit serve: tracking', () => {
  it('serves referral links and the snippet under /r beside the API', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ tracking: { landingUrl: 'https://shop.example/', allowedOrigins: ['https://blog.example'], cookieDays: 7, queryParams: ['via'] } }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    const root = url!.replace(/\/api\/v1$/, '')
    expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
    const link = await fetch(`${root}/r/ANN?to=${encodeURIComponent('https://blog.example/post')}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })
    expect(link.status).toBe(302)
    const [, referral] = /^ak_ref=(ANN\.\d+\.[\w-]+\.[\w-]+); Max-Age=604800; Path=\/; SameSite=Lax$/.exec(link.headers.get('set-cookie')!)!
    expect(link.headers.get('location')).toBe(`https://blog.example/post?ak_ref=${referral}`)
    const script = await fetch(`${root}/r/-/affiliate-kit.js`)
    expect(await script.text()).toContain('"params":["via"]')
    const affiliate = await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')
    expect(affiliate.body).toMatchObject({ data: { clicks: 1 } })
    const stats = await api(url!, KEY, 'GET', '/stats')
    expect(stats.body).toMatchObject({ data: { totals: { clicks: 1, unique_visitors: 1 } } })
    expect(await server.stop()).toBe(0)
  }, 60_000)
})
