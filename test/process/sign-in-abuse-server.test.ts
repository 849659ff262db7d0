// Black-box: the built `affiliate-kit serve` (node .test-build/cli/main.js, test/support/global-setup.ts) with the portal's emailed
// sign-in links and the admin console, attacked over plain HTTP. Whatever Host, X-Forwarded-Host
// or Forwarded a request names, the emailed link (a portal.sign_in_requested webhook to a real
// local receiver) points at the configured publicUrl; on PostgreSQL, 100 requests for one address
// from 100 client addresses (127.0.1.x, all loopback) spread over two servers send 3 emails and
// store 3 tokens; one client is
// limited (429) on link requests, link confirmations and console key sign-ins, and failed key
// sign-ins are in the audit log.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { api, freePort, run } from '../support/cli/process.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { startReceiver, until, type Receiver } from '../support/webhooks-helpers.js'

const KEY = `rgk_${'SignIn1Abuse2Key'.repeat(3)}`
const PUBLIC_URL = 'https://partners.example.com'
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-sign-in-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

/** A browser-like client on one local address (127.0.0.x) that keeps cookies and sends the headers it is told to. */
class RawClient {
  private readonly cookies = new Map<string, string>()
  constructor(
    private readonly port: number,
    private readonly localAddress = '127.0.0.1',
    private readonly headers: Record<string, string> = {},
  ) {}

  send(method: string, path: string, form?: Record<string, string>): Promise<Answer> {
    const body = form ? new URLSearchParams(form).toString() : undefined
    const headers: Record<string, string> = { ...this.headers }
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: this.port, localAddress: this.localAddress, method, path, headers }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';')
            const index = pair!.indexOf('=')
            this.cookies.set(pair!.slice(0, index), pair!.slice(index + 1))
          }
          resolve({ status: res.statusCode!, headers: res.headers, text })
        })
      })
      req.on('error', reject)
      req.end(body)
    })
  }

  /** GETs a page and posts `fields` with the CSRF token of its form. */
  async submit(page: string, action: string, fields: Record<string, string>): Promise<Answer> {
    const opened = await this.send('GET', page)
    const csrf = /name="csrf" value="([^"]+)"/.exec(opened.text)?.[1] ?? ''
    return this.send('POST', action, { csrf, ...fields })
  }
}

async function startServer(config: Record<string, unknown>, database = 'memory') {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify({ allowPrivateNetworks: true, ...config }))
  const port = await freePort()
  const server = run(['serve', '--port', String(port), '--database', database, '--config', file], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
  const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
  return { server, port, url: url! }
}

const signInLinks = (receiver: Receiver) =>
  receiver.requests.map((request) => (JSON.parse(request.body) as { sign_in: { link: string } }).sign_in.link)

describe('the built server: where emailed sign-in links point', () => {
  it('refuses portal.emailSignIn without portal.publicUrl, with one line', async () => {
    const file = join(dir, 'no-public-url.json')
    writeFileSync(file, JSON.stringify({ portal: { enabled: true, emailSignIn: true } }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', file], { cwd: dir })
    const started = server.waitFor(/listening on/).then(() => 'started', () => 'not started')
    const outcome = await Promise.race([server.exited.then(() => 'exited'), started])
    if (outcome === 'started') await server.stop()
    expect(outcome).toBe('exited')
    expect(await server.exited).not.toBe(0)
    expect(server.output()).toContain('"portal.publicUrl" is required with "portal.emailSignIn"')
    expect(server.output()).not.toMatch(/\n\s+at /)
  }, 60_000)

  it('emails links on publicUrl whatever Host, X-Forwarded-Host or Forwarded the request names', async () => {
    const receiver = await startReceiver()
    const { server, port, url } = await startServer({
      webhooks: [{ url: receiver.url, events: ['portal.sign_in_requested'] }],
      portal: { enabled: true, emailSignIn: true, publicUrl: PUBLIC_URL },
    })
    try {
      const variants: Array<Record<string, string>> = [
        { host: 'evil.example' },
        { host: 'evil.example:443' },
        { host: `127.0.0.1:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
        { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-port': '443', 'x-forwarded-proto': 'https' },
        { host: `127.0.0.1:${port}`, forwarded: 'for=203.0.113.9;host=evil.example;proto=https' },
        { host: `127.0.0.1:${port}`, 'x-forwarded-server': 'evil.example', 'x-host': 'evil.example', 'x-original-host': 'evil.example' },
      ]
      for (const [index, headers] of variants.entries()) {
        const email = `ann${index}@example.com`
        expect((await api(url, KEY, 'POST', '/affiliates', { email })).status).toBe(201)
        const client = new RawClient(port, `127.0.0.${10 + index}`, headers)
        const answer = await client.submit('/portal/sign-in', '/portal/sign-in/email', { email })
        expect(answer.status).toBe(200)
        expect(answer.text).toContain('a sign-in link is on its way')
      }
      await until(async () => receiver.requests.length === variants.length, 20_000)
      const links = signInLinks(receiver)
      for (const link of links) expect(link).toMatch(/^https:\/\/partners\.example\.com\/portal\/sign-in\?token=[A-Za-z0-9_-]{43}$/)
      // The link works on the server (publicUrl is where a proxy would send it).
      const link = new URL(links[0]!)
      const browser = new RawClient(port)
      const opened = await browser.send('GET', link.pathname + link.search)
      const csrf = /name="csrf" value="([^"]+)"/.exec(opened.text)![1]!
      expect((await browser.send('POST', '/portal/sign-in', { csrf, token: link.searchParams.get('token')! })).status).toBe(303)
    } finally {
      expect(await server.stop()).toBe(0)
      await receiver.close()
    }
  }, 90_000)
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`the built server on PostgreSQL: sign-in limits${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('sends 3 links for 100 requests for one address from 100 clients to two servers, and limits one client to 10 link requests', async () => {
    const db = await freshDatabase()
    const receiver = await startReceiver()
    const config = { webhooks: [{ url: receiver.url, events: ['portal.sign_in_requested'] }], portal: { enabled: true, emailSignIn: true, publicUrl: PUBLIC_URL } }
    const { server, port, url } = await startServer(config, db.url)
    const second = await startServer(config, db.url) // the limits are kept in the database, shared by both
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    const count = async (sql: string) => Number((await client.query(sql)).rows[0]!.count)
    try {
      await api(url, KEY, 'POST', '/affiliates', { email: 'ann@example.com' })
      const bodies = new Set<string>()
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => new RawClient(i % 2 ? port : second.port, `127.0.1.${i + 1}`).submit('/portal/sign-in', '/portal/sign-in/email', { email: i % 2 ? 'ann@example.com' : 'ANN@example.com' })),
      )
      for (const answer of answers) {
        expect(answer.status).toBe(200)
        bodies.add(answer.text.replace(/name="csrf" value="[^"]+"/g, ''))
      }
      const unknown = await new RawClient(port, '127.0.1.200').submit('/portal/sign-in', '/portal/sign-in/email', { email: 'nobody@example.com' })
      bodies.add(unknown.text.replace(/name="csrf" value="[^"]+"/g, ''))
      expect(bodies.size).toBe(1) // the same page for a known, a limited and an unknown address
      expect(await count('SELECT count(*) FROM affiliate_kit.web_sign_in_tokens')).toBe(3)
      expect(await count(`SELECT count(*) FROM affiliate_kit.webhook_events WHERE type = 'portal.sign_in_requested'`)).toBe(3)
      await until(async () => (await count(`SELECT count(*) FROM affiliate_kit.deliveries WHERE status <> 'succeeded'`)) === 0, 30_000)
      expect(receiver.requests).toHaveLength(3)

      // One client, many addresses (and a forged X-Forwarded-For each time, which the server does not trust).
      const statuses: number[] = []
      for (let i = 0; i < 12; i += 1) {
        const answer = await new RawClient(port, '127.0.2.1', { 'x-forwarded-for': `198.51.100.${i}` }).submit('/portal/sign-in', '/portal/sign-in/email', { email: `someone${i}@example.com` })
        statuses.push(answer.status)
        if (answer.status === 429) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0)
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429])
    } finally {
      await client.end()
      expect(await second.server.stop()).toBe(0)
      expect(await server.stop()).toBe(0)
      await receiver.close()
      await db.drop()
    }
  }, 120_000)

  it('limits link confirmations and console key sign-ins per client, and records refused key sign-ins', async () => {
    const db = await freshDatabase()
    const { server, port, url } = await startServer({ portal: { enabled: true }, admin: { enabled: true } }, db.url)
    try {
      const attacker = new RawClient(port, '127.0.3.1')
      const confirmations: number[] = []
      for (let i = 0; i < 21; i += 1) confirmations.push((await attacker.submit(`/portal/sign-in?token=${'A'.repeat(43)}`, '/portal/sign-in', { token: `${'B'.repeat(40)}${String(i).padStart(3, '0')}` })).status)
      expect(confirmations).toEqual([...Array(20).fill(400), 429])

      const keySignIns: number[] = []
      for (let i = 0; i < 10; i += 1) keySignIns.push((await attacker.submit('/admin/sign-in', '/admin/sign-in', { key: `rgk_${'Guess'.repeat(8)}${i}` })).status)
      const withTheKey = await attacker.submit('/admin/sign-in', '/admin/sign-in', { key: KEY })
      expect(keySignIns).toEqual(Array(10).fill(401))
      expect(withTheKey.status).toBe(429)
      expect(Number(withTheKey.headers['retry-after'])).toBeGreaterThan(0)
      expect((await new RawClient(port, '127.0.3.2').submit('/admin/sign-in', '/admin/sign-in', { key: KEY })).status).toBe(303)

      const log = await api(url, KEY, 'GET', '/audit-log?limit=50')
      const entries = (log.body!.data as Array<{ action: string; actor_id: string; detail: string | null }>).map(({ action, actor_id }) => `${action} ${actor_id}`)
      expect(entries).toEqual(['console.sign_in key:1', ...Array(10).fill('console.sign_in_failed client:127.0.3.1')])
      expect(JSON.stringify(log.body)).not.toContain('Guess')
    } finally {
      expect(await server.stop()).toBe(0)
      await db.drop()
    }
  }, 120_000)
})
