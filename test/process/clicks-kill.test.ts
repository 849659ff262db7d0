// kill -9 under a click load (docs/analytics.md "What a crash loses"): three `serve` on one
// PostgreSQL database take referral-link visits and conversions; one is killed with SIGKILL
// mid-load, the other two are stopped as usual. The click rows lost are at most what the killed
// process answered since the start of its last flush (one interval, plus the batch being written
// when it died: bounded here by two intervals; measured and printed); every conversion and
// referred user a server acknowledged is stored.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, request } from 'node:http'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'

const tempDir = tempDirs('affiliate-kit-clicks-kill')
const API_KEY = 'rgk_clickskill0123456789abcdefg'
const FLUSH_MS = 1000
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

const agent = new Agent({ keepAlive: true, maxSockets: 16 })
function send(port: number, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: body ? { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : headers, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
    req.end(body)
  })
}

describe('kill -9 under a click load, three processes on one PostgreSQL', () => {
  it('loses at most the clicks since the killed process\'s last flush, and no conversion or referred user', async () => {
    const database = await freshDatabase()
    closing.push(() => database.drop())
    const program = await createAffiliateProgram({ storage: postgresStorage({ connectionString: database.url }) })
    closing.push(() => program.close())
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const dir = tempDir()
    const tracking = { landingUrl: 'https://shop.example/', trustProxy: true, visitorsPerAddress: false, clicks: { flushMilliseconds: FLUSH_MS } }
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ tracking }))
    const servers = [0, 1, 2].map(() => run(['serve', '--port', '0', '--database', database.url, '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: API_KEY } }))
    const ports = (await Promise.all(servers.map((server) => server.waitFor(/listening on http:\/\/[^:]+:(\d+)/)))).map((match) => Number(match[1]))

    // 5 s of visits (each a new visitor) and conversions, spread over the three; the first is killed at 3 s.
    const answered = [0, 1, 2].map(() => [] as number[])
    const acknowledged: string[] = []
    let visitor = 0
    let killedAt = 0
    const started = Date.now()
    const load = async (server: number) => {
      while (Date.now() - started < 5000) {
        if (server === 0 && killedAt !== 0) return
        visitor += 1
        const me = visitor
        const headers = { 'user-agent': BROWSER, 'x-forwarded-for': `10.1.${(me >> 8) & 255}.${me & 255}` }
        if (me % 10 === 0) {
          const email = `buyer${me}@example.com`
          const body = JSON.stringify({ type: 'purchase', referral_code: 'ANN', email, base_value: 10, reference: `order-${me}` })
          const status = await send(ports[server]!, 'POST', '/api/v1/conversions', { authorization: `Bearer ${API_KEY}` }, body)
          if (status === 201) acknowledged.push(email)
        } else if ((await send(ports[server]!, 'GET', '/r/ANN', headers)) === 302) answered[server]!.push(Date.now())
      }
    }
    const kill = new Promise<void>((resolve) =>
      setTimeout(() => {
        killedAt = Date.now()
        servers[0]!.child.kill('SIGKILL')
        resolve()
      }, 3000),
    )
    await Promise.all([kill, ...[0, 1, 2].flatMap((server) => [load(server), load(server), load(server)])])
    for (const server of servers.slice(1)) expect(await server.stop(), server.output()).toBe(0)
    await servers[0]!.exited

    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    closing.push(() => client.end())
    const stored = Number((await client.query('SELECT count(*) AS n FROM affiliate_kit.link_clicks')).rows[0].n)
    const sent = answered.reduce((sum, times) => sum + times.length, 0)
    const lost = sent - stored
    // What the killed process answered in the two intervals before its death: what it may not have written.
    const window = answered[0]!.filter((at) => at >= killedAt - 2 * FLUSH_MS).length
    const lastInterval = answered[0]!.filter((at) => at >= killedAt - FLUSH_MS).length
    console.log(`clicks answered ${sent} (killed process ${answered[0]!.length}, of them in its last ${FLUSH_MS} ms ${lastInterval}, last ${2 * FLUSH_MS} ms ${window}); rows stored ${stored}; lost ${lost} (${((lost / sent) * 100).toFixed(1)}% of all, ${((lost / answered[0]!.length) * 100).toFixed(0)}% of the killed process's)`)
    expect(lost).toBeGreaterThanOrEqual(0)
    expect(lost).toBeLessThanOrEqual(window)

    const emails = new Set<string | null>()
    for (let offset = 0; ; offset += 100) {
      const page = await program.conversions.list({ limit: 100, offset })
      for (const conversion of page.items) emails.add(conversion.customerEmail)
      if (page.items.length < 100) break
    }
    expect(acknowledged.length).toBeGreaterThan(10)
    expect(acknowledged.filter((email) => !emails.has(email))).toEqual([])
    for (const email of acknowledged) expect(await program.referrals.get(email)).toMatchObject({ email })
  }, 120_000)
})
