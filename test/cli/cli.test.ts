// The affiliate-kit command: serve (config validation, first key, env key, persistence across
// restarts with PGlite, graceful stop), keys create|list|revoke, migrate.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { createAffiliateProgram } from '../../src/index.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'

const tempDir = tempDirs('affiliate-kit-cli')

const KEY = `rgk_${'Cli0Test1Key2'.repeat(3)}xyz`

describe('affiliate-kit serve', () => {
  it('keeps all data in PGlite across a stop and a start, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir()
    const database = `pglite:${migratedDataDir(join(dir, 'data'))}`
    const first = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url] = await first.waitFor(/listening on (http:\/\/\S+)/)
    const [, key] = await first.waitFor(/shown once, keep it\): (rgk_\w+)/)
    const created = await api(url!, key!, 'POST', '/affiliates', { email: 'keep@example.com', referral_code: 'KEEP' })
    expect(created.status).toBe(201)
    await api(url!, key!, 'POST', '/conversions', { type: 'purchase', referral_code: 'KEEP', base_value: 10, reference: 'ch_keep' })
    expect(await first.stop()).toBe(0)
    expect(first.output()).toContain('shutting down')
    const publishable = run(['keys', 'create', '--publishable', '--database', database], { cwd: dir })
    expect(await publishable.exited).toBe(0)

    const second = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url2] = await second.waitFor(/listening on (http:\/\/\S+)/)
    // The start line counts the secret keys and, apart, the publishable ones.
    expect(second.output()).toMatch(/API keys: 1 active \(prefixes rgk_\w+\); publishable keys: 1 active \(prefixes rgp_\w+\); create another/)
    // A browser's /favicon.ico is no API request: answered 404, logged at debug only; a wrong API path is logged.
    expect((await fetch(new URL('/favicon.ico', url2)).then((response) => response.status))).toBe(404)
    expect((await api(url2!, key!, 'GET', '/no-such-route')).status).toBe(404)
    const again = await api(url2!, key!, 'GET', '/affiliates/keep%40example.com')
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ data: { referral_code: 'KEEP', purchases: 1, total_earnings: '3.00' } })
    const duplicate = await api(url2!, key!, 'POST', '/conversions', { type: 'purchase', referral_code: 'KEEP', base_value: 10, reference: 'ch_keep' })
    expect(duplicate).toMatchObject({ status: 200, body: { duplicate: true } })
    expect(await second.stop()).toBe(0)
    expect(second.output().match(/INFO {2}request .*status=404.*/g)).toEqual([expect.stringMatching(/surface=api method=GET route=unmatched status=404/)])
  }, 120_000)

  it('uses AFFILIATE_KIT_API_KEY, config settings and the alternative shape', async () => {
    const dir = tempDir()
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ currency: 'EUR', holdPeriodDays: 30, commission: { purchase: { type: 'percentage', rate: 25 } }, shape: 'alternative', rateLimit: { limit: 1000, windowSeconds: 60 } }),
    )
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    expect(server.output()).not.toContain('shown once')
    const affiliate = await api(url!, KEY, 'POST', '/affiliates', { email: 'alt@example.com', name: 'Alt' })
    expect(affiliate.status).toBe(201)
    expect(affiliate.body).toMatchObject({ data: { affiliate: { id: expect.stringMatching(/^aff_/) } } })
    const conversion = await api(url!, KEY, 'POST', '/conversions', { customer_email: 'c@example.com', amount: 100, referral_code: affiliate.body!.data.affiliate.referralCode })
    expect(conversion.status).toBe(201)
    expect(conversion.body).toMatchObject({ data: { conversion: { commission_amount: 25, status: 'pending' } } })
    const limited = await fetch(`${url}/affiliates`, { headers: { authorization: `Bearer ${KEY}` } })
    expect(limited.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(await server.stop()).toBe(0)
  }, 60_000)

  it.each([
    [{ holdPeriod: 30 }, /unknown field "holdPeriod"/],
    [{ holdPeriodDays: -1 }, /"holdPeriodDays" must not be negative/],
    [{ commission: { purchase: { type: 'percentage', rate: 130 } } }, /"commission.purchase.rate"/],
    [{ webhooks: [{ url: 'not a url', events: ['referral_converted'] }] }, /"webhooks.0.url"/],
    [{ shape: 'round' }, /"shape" must be primary or alternative/],
    [{ tracking: { allowedOrigins: [] } }, /"tracking.landingUrl"/],
    [{ tracking: { landingUrl: 'ftp://shop.example/' } }, /"tracking.landingUrl" must be an http or https URL/],
    [{ tracking: { landingUrl: 'https://shop.example/', allowedOrigins: ['https://blog.example/path'] } }, /"tracking.allowedOrigins.0" must be an origin/],
    [{ tracking: { landingUrl: 'https://shop.example/', cookie: 1 } }, /unknown field "tracking.cookie"/],
    [{ tracking: { landingUrl: 'https://shop.example/', visitorsPerAddress: 0 } }, /"tracking.visitorsPerAddress" must be a positive integer or false/],
    [{ tracking: { landingUrl: 'https://shop.example/', publicUrl: 'https://go.example/r' } }, /"tracking.publicUrl" must be an origin/],
    [{ portal: { enabled: true, referralLink: 'landing' } }, /"portal.referralLink" needs "tracking"/],
    [{ tracking: { landingUrl: 'https://shop.example/' }, portal: { enabled: true, referralLink: 'tracking' } }, /"portal.referralLink" "tracking" needs the public origin/],
    [{ attribution: { model: 'middle_click' } }, /"attribution.model" must be first_click or last_click/],
    [{ timeZone: 'Mars/Olympus' }, /"timeZone" must be an IANA time zone/],
  ])('refuses to start with a bad config %j, naming the key', async (config, message) => {
    const dir = tempDir()
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json'], { cwd: dir })
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(message)
    expect(server.output()).not.toContain('listening')
  }, 30_000)

  it.each([
    [{ 'EUR->USD': 1.0825 }, '"exchangeRates.EUR->USD" must be a decimal string such as "1.0825" (in quotes, so it stays exact)'],
    [{ 'EUR->USD': '0.00' }, '"exchangeRates.EUR->USD" must be greater than 0'],
    [{ 'EUR->USD': '-1.08' }, '"exchangeRates.EUR->USD" must be a decimal number such as "1.0825"'],
    [{ 'EUR->USD': '1.12345678901' }, '"exchangeRates.EUR->USD" must have at most 10 decimal places'],
    [{ EUR: { USD: '1.0825' } }, '"exchangeRates.EUR" must be a currency pair such as "EUR->USD" (three-letter codes in capitals)'],
    [{ 'EUR->EUR': '1' }, '"exchangeRates.EUR->EUR" must name two different currencies'],
    [['EUR->USD'], '"exchangeRates" must be an object such as { "EUR->USD": "1.0825" }'],
  ])('refuses exchangeRates %j with one line naming the pair', async (exchangeRates, message) => {
    const dir = tempDir()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ exchangeRates }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json'], { cwd: dir })
    expect(await server.exited).toBe(1)
    expect(server.output().trim()).toBe(`affiliate-kit: config config.json: ${message}`)
  }, 30_000)

  it('refuses an unknown --database and a bad --port', async () => {
    const database = run(['serve', '--database', 'mysql://x'])
    expect(await database.exited).toBe(1)
    expect(database.output()).toMatch(/--database must be/)
    const port = run(['serve', '--port', 'eighty', '--database', 'memory'])
    expect(await port.exited).toBe(1)
    expect(port.output()).toMatch(/--port must be/)
  }, 30_000)
})

describe('affiliate-kit keys and migrate', () => {
  it('creates, lists and revokes keys in the database the server uses', async () => {
    const dir = tempDir()
    const database = `pglite:${join(dir, 'data')}`
    const migrate = run(['migrate', '--database', database])
    expect(await migrate.exited).toBe(0)
    expect(migrate.output()).toContain('migrated')

    const create = run(['keys', 'create', '--name', 'reporting', '--scopes', 'affiliates:read,payouts:read', '--database', database])
    expect(await create.exited).toBe(0)
    const [key] = create.output().match(/rgk_\w+/)!
    const id = Number(create.output().match(/\(id (\d+)/)![1])

    const list = run(['keys', 'list', '--database', database])
    expect(await list.exited).toBe(0)
    expect(list.output()).toContain(`${id}\t${key!.slice(0, 8)}…\taffiliates:read,payouts:read\treporting\tactive`)
    expect(list.output()).not.toContain(key!)

    const server = run(['serve', '--port', '0', '--database', database], { cwd: dir })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    expect((await api(url!, key!, 'GET', '/affiliates')).status).toBe(200)
    expect((await api(url!, key!, 'POST', '/affiliates', { email: 'no@example.com' })).status).toBe(403)
    expect(await server.stop()).toBe(0)

    const revoke = run(['keys', 'revoke', String(id), '--database', database])
    expect(await revoke.exited).toBe(0)
    const listed = run(['keys', 'list', '--database', database])
    expect(await listed.exited).toBe(0)
    expect(listed.output()).toMatch(/revoked/)
    const badScope = run(['keys', 'create', '--scopes', 'everything', '--database', database])
    expect(await badScope.exited).toBe(1)
    expect(badScope.output()).toMatch(/unknown scope "everything"/)
  }, 120_000)

  it('leave the stored project settings alone when no --config is given', async () => {
    const dataDir = migratedDataDir(join(tempDir(), 'data'))
    const settings = { currency: 'EUR', holdPeriodDays: 30, commission: { purchase: { type: 'percentage' as const, rate: 25 } }, allowPrivateNetworks: true }
    const before = await createAffiliateProgram({ storage: pgliteStorage({ dataDir }), settings })
    await before.close()

    for (const args of [['migrate'], ['keys', 'create'], ['keys', 'list']]) {
      const command = run([...args, '--database', `pglite:${dataDir}`])
      expect(await command.exited).toBe(0)
    }

    const after = await createAffiliateProgram({ storage: pgliteStorage({ dataDir }) })
    try {
      expect(await after.settings()).toEqual(settings)
    } finally {
      await after.close()
    }
  }, 120_000)
})
