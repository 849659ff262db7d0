// `affiliate-kit serve` with a `tracking` config: referral links and the snippet beside the API
// (bad tracking config is among cli.test.ts's refused configs); on PostgreSQL, the forgeries an
// attacker tried against the running server: many user agents from one address, browser signups
// without a click, and a known customer claimed.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

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
    const [, referral] = /^ak_ref=(ANN\.\d+\.[\w-]+\.[\w-]+\.[\w-]+); Max-Age=604800; Path=\/; SameSite=Lax$/.exec(link.headers.get('set-cookie')!)!
    expect(link.headers.get('location')).toBe(`https://blog.example/post?ak_ref=${referral}`)
    const script = await fetch(`${root}/r/-/affiliate-kit.js`)
    expect(await script.text()).toContain('"params":["via"]')
    // The server's click buffer writes the click within its second.
    await expect.poll(async () => (await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')).body?.data?.clicks, { timeout: 5000 }).toBe(1)
    const stats = await api(url!, KEY, 'GET', '/stats')
    expect(stats.body).toMatchObject({ data: { totals: { clicks: 1, unique_visitors: 1 } } })
    expect(await server.stop()).toBe(0)
  }, 60_000)
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`affiliate-kit serve: forged clicks and signups${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('300 user agents from one address add 20 visitors; signups without a click are refused; a known customer is never moved', async () => {
    const db = await freshDatabase()
    const dir = tempDir()
    try {
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ tracking: { landingUrl: 'https://shop.example/' } }))
      const server = run(['serve', '--port', '0', '--database', db.url, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const root = url!.replace(/\/api\/v1$/, '')
      const ann = await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const bob = await api(url!, KEY, 'POST', '/affiliates', { email: 'bob@example.com', referral_code: 'BOB' })
      expect((await api(url!, KEY, 'POST', '/referrals', { email: 'direct@example.com' })).status).toBe(201)
      expect((await api(url!, KEY, 'POST', '/referrals', { email: 'bobs@example.com', affiliate_id: bob.body!.data.id })).status).toBe(201)
      // The page's publishable key, made in the same database.
      const program = await createAffiliateProgram({ storage: postgresStorage({ connectionString: db.url, max: 1 }) })
      const publishable = (await program.keys.createPublishable({ name: 'site' })).key
      await program.close()

      const cookies: string[] = []
      for (let n = 0; n < 300; n += 1) {
        const link = await fetch(`${root}/r/ANN`, { redirect: 'manual', headers: { 'user-agent': `${BROWSER} n${n}` } })
        cookies.push(/^ak_ref=([^;]+);/.exec(link.headers.get('set-cookie')!)![1]!)
      }
      // The first 20 visitors got a signed referral (naming their click), the other 280 an unsigned one.
      expect(cookies.filter((cookie) => cookie.split('.').length === 5)).toHaveLength(20)
      await fetch(`${root}/r/ANN`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } })
      await expect.poll(async () => (await api(url!, KEY, 'GET', '/stats')).body?.data?.totals, { timeout: 5000 }).toMatchObject({ clicks: 20, unique_visitors: 20 })

      const signup = (body: unknown) =>
        fetch(`${root}/r/-/signups`, {
          method: 'POST',
          headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json', 'user-agent': BROWSER },
          body: JSON.stringify(body),
        })
      expect((await signup({ email: 'future@example.com', referral_code: 'ANN' })).status).toBe(403)
      expect((await signup({ email: 'future@example.com', referral: 'ANN.9999999999' })).status).toBe(403)
      expect((await api(url!, KEY, 'GET', '/referrals/future%40example.com')).status).toBe(404)

      expect((await signup({ email: 'future@example.com', referral: cookies[299] })).status).toBe(403)
      // Each visitor's browser keeps its signed referral; any signup uses it up.
      for (const [n, email] of ['direct@example.com', 'bobs@example.com'].entries()) expect((await signup({ email, referral: cookies[n] })).status).toBe(200)
      const referral = cookies[2]!
      expect((await api(url!, KEY, 'GET', '/referrals/direct%40example.com')).body).toMatchObject({ data: { affiliate_id: null } })
      expect((await api(url!, KEY, 'GET', '/referrals/bobs%40example.com')).body).toMatchObject({ data: { affiliate_id: bob.body!.data.id } })
      expect((await signup({ email: 'new@example.com', referral })).status).toBe(201)
      expect((await api(url!, KEY, 'GET', '/referrals/new%40example.com')).body).toMatchObject({ data: { affiliate_id: ann.body!.data.id } })
      expect((await signup({ email: 'second@example.com', referral })).status).toBe(409)
      expect(await server.stop()).toBe(0)
    } finally {
      await db.drop()
    }
  }, 120_000)
})
