// The application page against bots (docs/onboarding.md "Bots"), over real HTTP: 1,000
// submissions from one visitor make at most the per-client limit's worth of pending affiliates;
// a filled or missing honeypot, a form sent too fast, a forged or stale time stamp, a missing CSRF
// token and a refusing verifyApplication hook make none; an email applying twice makes one
// affiliate, and the page answers a known email exactly as a new one.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type TestClock } from '../../src/index.js'
import { createPortal, type PortalOptions } from '../../src/portal/index.js'
import { Agent } from '../support/portal/helpers.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

interface Running {
  program: AffiliateProgram
  clock: TestClock
  base: string
  server: Server
}

const running: Server[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function start(options: Partial<PortalOptions> = {}, storage: Parameters<typeof createPortal>[1]['sessions'] & Parameters<typeof createAffiliateProgram>[0]['storage'] = memoryStorage(), clock = testClock('2026-03-01T09:00:00Z')): Promise<Running> {
  const program = await createAffiliateProgram({ storage, clock })
  const portal = createPortal(program, { sessions: storage, ...options })
  const server = createServer(portal.node)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  running.push(server)
  return { program, clock, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** A visitor: a browser-like cookie jar speaking to the server over HTTP. */
const visitor = (base: string) => new Agent((request) => fetch(request), base)

/** Opens the form and reads its hidden fields. */
async function openForm(agent: Agent): Promise<{ csrf: string; started: string }> {
  const page = await (await agent.get('/portal/apply')).text()
  return { csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]!, started: /name="started" value="([^"]+)"/.exec(page)![1]! }
}

const answers = (email: string, hidden: { csrf: string; started: string }): Record<string, string> => ({
  ...hidden,
  name: 'Bot McBotface',
  email,
  website: 'https://bots.example',
  promotion: 'Everywhere, all at once',
  contact_me_by_fax: '',
})

describe('application page against bots, over HTTP', () => {
  it('1,000 submissions from one visitor make at most the per-client limit of pending affiliates', async () => {
    const { program, clock, base } = await start()
    const bot = visitor(base)
    const hidden = await openForm(bot)
    clock.advance({ seconds: 30 })
    const statuses: number[] = []
    for (let batch = 0; batch < 100; batch += 1) {
      const answered = await Promise.all(
        Array.from({ length: 10 }, async (_, n) => {
          const response = await bot.post('/portal/apply', answers(`bot${batch * 10 + n}@example.com`, hidden))
          if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
          await response.arrayBuffer()
          return response.status
        }),
      )
      statuses.push(...answered)
    }
    const created = await program.affiliates.list({ status: 'pending', limit: 100 })
    // The default applyPerClient is 5 an hour.
    expect(created.total).toBe(5)
    expect(statuses.filter((status) => status === 200)).toHaveLength(5)
    expect(statuses.filter((status) => status === 429)).toHaveLength(995)
  }, 120_000)

  it('refuses a filled or missing honeypot, a form sent too fast, a forged or stale stamp, no CSRF token, and a refusing hook', async () => {
    const verified: URLSearchParams[] = []
    const { program, clock, base } = await start({
      limits: { applyPerClient: false },
      verifyApplication: ({ form }) => {
        verified.push(form)
        return form.get('captcha') === 'solved'
      },
    })
    const agent = visitor(base)
    const count = async () => (await program.affiliates.list()).total

    const fast = await agent.post('/portal/apply', answers('fast@example.com', await openForm(agent)))
    expect(fast.status).toBe(400)
    expect(await fast.text()).toContain('That was quick')

    const hidden = await openForm(agent)
    clock.advance({ seconds: 5 })
    const trapped = await agent.post('/portal/apply', { ...answers('trap@example.com', hidden), contact_me_by_fax: '555-0100', captcha: 'solved' })
    expect(trapped.status).toBe(200)
    const { contact_me_by_fax: _trap, ...withoutTrap } = answers('notrap@example.com', hidden)
    expect((await agent.post('/portal/apply', { ...withoutTrap, captcha: 'solved' })).status).toBe(200)

    const forged = hidden.started.replace(/^\d+/, String(Date.parse('2026-03-01T08:00:00Z')))
    expect((await agent.post('/portal/apply', { ...answers('forged@example.com', { ...hidden, started: forged }), captcha: 'solved' })).status).toBe(400)
    expect((await agent.post('/portal/apply', { ...answers('nostamp@example.com', { ...hidden, started: '' }), captcha: 'solved' })).status).toBe(400)
    expect((await agent.post('/portal/apply', { ...answers('nocsrf@example.com', { ...hidden, csrf: '' }), captcha: 'solved' })).status).toBe(403)
    expect((await agent.post('/portal/apply', answers('captcha@example.com', hidden))).status).toBe(400)
    expect(verified.at(-1)?.get('email')).toBe('captcha@example.com')
    expect(await count()).toBe(0)

    clock.advance({ days: 2 })
    const stale = await agent.post('/portal/apply', { ...answers('stale@example.com', hidden), captcha: 'solved' })
    expect(stale.status).toBe(400)
    expect(await stale.text()).toContain('This form has expired')
    expect(await count()).toBe(0)

    const fresh = await openForm(agent)
    clock.advance({ seconds: 5 })
    const accepted = await agent.post('/portal/apply', { ...answers('human@example.com', fresh), captcha: 'solved' })
    expect(accepted.status).toBe(200)
    expect(await count()).toBe(1)
    expect(await program.affiliates.get('human@example.com')).toMatchObject({ status: 'pending' })
  })

  it('an email applying twice makes one affiliate, and a known email is answered as a new one', async () => {
    const { program, clock, base } = await start({ limits: { applyPerClient: false } })
    await program.affiliates.create({ email: 'owner-made@example.com', name: 'Made By Owner' })
    const agent = visitor(base)
    const hidden = await openForm(agent)
    clock.advance({ seconds: 5 })
    const answer = async (email: string) => {
      const response = await agent.post('/portal/apply', answers(email, hidden))
      return { status: response.status, body: await response.text() }
    }
    const first = await answer('new@example.com')
    const second = await answer('NEW@example.com')
    const known = await answer('owner-made@example.com')
    expect(first.status).toBe(200)
    expect(second).toEqual(first)
    expect(known).toEqual(first)
    expect((await program.affiliates.list()).total).toBe(2)
    expect(await program.affiliates.get('owner-made@example.com')).toMatchObject({ name: 'Made By Owner', status: 'active', application: null })
  })
})

describe('application answers', () => {
  it('refuses a missing, malformed or unknown answer with its message, keeping what was typed', async () => {
    const fields = [
      { name: 'channel', label: 'Main channel URL', type: 'url' as const, required: true },
      { name: 'audience', label: 'Audience size?', type: 'select' as const, options: ['Small', 'Large'] },
    ]
    const { program, clock, base } = await start({ limits: { applyPerClient: false }, application: { fields, termsUrl: 'https://example.com/terms' } })
    const agent = visitor(base)
    const hidden = await openForm(agent)
    clock.advance({ seconds: 5 })
    const refused = await agent.post('/portal/apply', { ...answers('not-an-email', hidden), promotion: '', field_channel: 'javascript:alert(1)', field_audience: 'Huge' })
    expect(refused.status).toBe(400)
    const page = await refused.text()
    for (const message of [
      'Email address: enter an address such as name@example.com.',
      'How will you promote us: this field is required.',
      'Main channel URL: enter a web address starting with https://.',
      'Audience size: choose one of the options.',
      'Agree to the program terms to apply.',
    ]) {
      expect(page).toContain(message)
    }
    expect(page).toContain('value="not-an-email"')
    expect((await program.affiliates.list()).total).toBe(0)
    const accepted = await agent.post('/portal/apply', { ...answers('ok@example.com', hidden), field_channel: 'https://ok.example', field_audience: 'Large', terms: 'on' })
    expect(accepted.status).toBe(200)
    expect((await program.affiliates.get('ok@example.com')).application).toMatchObject({ fields: { channel: 'https://ok.example', audience: 'Large' }, termsAcceptedAt: '2026-03-01T09:00:05.000Z' })
  })
})

describe.skipIf(!DATABASE_URL)(`application limits shared by processes on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('a visitor alternating between two servers on one database still makes at most the limit', async () => {
    const fresh = freshPostgresStorage()
    const second = postgresStorage({ connectionString: DATABASE_URL!, schema: fresh.schema })
    try {
      const clock = testClock('2026-03-01T09:00:00Z')
      const one = await start({}, fresh.storage, clock)
      const two = await start({}, second, clock)
      // The form drawn by one server is accepted by the other: the signing key is the database's.
      const bot = visitor(one.base)
      const hidden = await openForm(bot)
      clock.advance({ seconds: 30 })
      const other = new Agent((request) => fetch(request), two.base)
      for (const [name, value] of bot.cookies) other.cookies.set(name, value)
      const statuses: number[] = []
      for (let n = 0; n < 200; n += 1) {
        const response = await (n % 2 === 0 ? bot : other).post('/portal/apply', answers(`pg${n}@example.com`, hidden))
        await response.arrayBuffer()
        statuses.push(response.status)
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(5)
      expect(statuses.filter((status) => status === 429)).toHaveLength(195)
      expect((await one.program.affiliates.list({ status: 'pending' })).total).toBe(5)
    } finally {
      await second.close()
      await fresh.cleanup()
    }
  }, 120_000)
})
