// SIGTERM while requests arrive (issue 43 item 6): every request the server accepted is answered,
// or refused with 503 and `Connection: close` before it is read; none is reset or dropped
// silently. Checked against a real `serve` on keep-alive connections, and by counting afterwards
// what was stored.
import { Agent, request } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'

const tempDir = tempDirs('affiliate-kit-drain')

type Outcome = { status: number; connection: string | undefined; body: string } | { error: string }

function send(agent: Agent, url: URL, key: string, method: string, body?: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request(url, { agent, method, headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, body: text }))
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
    req.end(payload)
  })
}

describe('serve drains on SIGTERM', () => {
  it('20 connections POSTing back to back through SIGTERM: every request is answered (201, or 503 with Connection: close and not applied), none reset; the stop tells each connection to close; what was answered 201 is stored, nothing else', async () => {
    const dir = tempDir()
    const data = `pglite:${migratedDataDir(join(dir, 'data'))}`
    // A rate limit above what twenty busy connections send.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ rateLimit: { limit: 100_000, windowSeconds: 60 } }))
    const first = run(['serve', '--port', '0', '--database', data, '--config', 'config.json'], { cwd: dir })
    const [, base] = await first.waitFor(/listening on (http:\/\/\S+)/)
    const [, key] = await first.waitFor(/shown once, keep it\): (rgk_\w+)/)
    const agent = new Agent({ keepAlive: true, maxSockets: 20 })
    const affiliates = new URL(`${base}/affiliates`)

    // Each connection sends its next POST as soon as the last is answered, until the server says
    // close (or fails it); SIGTERM lands while all twenty are busy.
    const outcomes: Array<{ email: string; outcome: Outcome }> = []
    let sent = 0
    const worker = async () => {
      for (;;) {
        const email = `drain${(sent += 1)}@example.com`
        const outcome = await send(agent, affiliates, key!, 'POST', { email })
        outcomes.push({ email, outcome })
        if ('error' in outcome || outcome.status !== 201 || outcome.connection === 'close') return
      }
    }
    const workers = Array.from({ length: 20 }, () => worker())
    while (outcomes.length < 60) await new Promise((resolve) => setTimeout(resolve, 5))
    first.child.kill('SIGTERM')
    await Promise.all(workers)
    expect(await first.exited).toBe(0)
    agent.destroy()

    expect(outcomes.flatMap(({ outcome }) => ('error' in outcome ? [outcome.error] : []))).toEqual([])
    const answers = outcomes.map(({ outcome }) => outcome as Exclude<Outcome, { error: string }>)
    expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 503)).toEqual([])
    expect(answers.filter((answer) => answer.status === 503 && answer.connection !== 'close')).toEqual([])
    // Every connection was told to close: the last answer on each says so.
    expect(answers.filter((answer) => answer.connection === 'close').length).toBe(20)
    const created = outcomes.flatMap(({ email, outcome }) => ('status' in outcome && outcome.status === 201 ? [email] : []))

    const second = run(['serve', '--port', '0', '--database', data], { cwd: dir })
    const [, again] = await second.waitFor(/listening on (http:\/\/\S+)/)
    const emails: string[] = []
    for (let offset = 0; ; offset += 100) {
      const page = await api(again!, key!, 'GET', `/affiliates?limit=100&offset=${offset}`)
      const rows = page.body!.data as Array<{ user_email: string }>
      emails.push(...rows.map((affiliate) => affiliate.user_email))
      if (rows.length < 100) break
    }
    expect(emails.sort()).toEqual(created.sort())
    expect(await second.stop()).toBe(0)
  }, 120_000)
})
