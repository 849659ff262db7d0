// The config file is the truth at each start of `affiliate-kit serve`: a key removed from it takes
// its default at the next start, also after the previous server was killed -9 mid-life. Runs the
// server as a real process, on one PGlite directory and on PostgreSQL, with a real local receiver.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, run } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { startReceiver, until, type Receiver } from '../support/webhooks-helpers.js'

const tempDir = tempDirs('affiliate-kit-cli-settings')
const KEY = `rgk_${'Settings0Restart1'.repeat(2)}`

let receiver: Receiver
let hookUrl = ''

beforeAll(async () => {
  receiver = await startReceiver()
  // A name, not a literal address: saving it is allowed either way; connecting decides.
  hookUrl = `http://localhost:${receiver.port}/hook`
})
afterAll(() => receiver.close())

const received = () => receiver.requests.length

async function scenario(database: string) {
  const dir = tempDir()
  const config = join(dir, 'affiliate.config.json')
  const webhooks = [{ url: hookUrl, events: ['referral_converted'] }]
  const env = { AFFILIATE_KIT_API_KEY: KEY }
  writeFileSync(config, JSON.stringify({ holdPeriodDays: 30, allowPrivateNetworks: true, webhooks }))

  const first = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env })
  const [, url] = await first.waitFor(/listening on (http:\/\/\S+)/)
  expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
  const held = await api(url!, KEY, 'POST', '/conversions', { type: 'purchase', referral_code: 'ANN', base_value: 10, reference: 'ch_1' })
  expect(held.body).toMatchObject({ data: { status: 'pending' } })
  await until(async () => received() === 1, 15_000)
  first.child.kill('SIGKILL')
  await first.exited

  // The same file without holdPeriodDays and allowPrivateNetworks: both are back to their defaults.
  writeFileSync(config, JSON.stringify({ webhooks }))
  const second = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env })
  const [, url2] = await second.waitFor(/listening on (http:\/\/\S+)/)
  try {
    const released = await api(url2!, KEY, 'POST', '/conversions', { type: 'purchase', referral_code: 'ANN', base_value: 10, reference: 'ch_2' })
    expect(released.body).toMatchObject({ data: { status: 'active' } })
    const [endpoint] = (await api(url2!, KEY, 'GET', '/webhooks/1/deliveries')).body!.data as Array<{ id: number; status: string }>
    let attempts: Array<{ error: string | null }> = []
    await until(async () => {
      const detail = await api(url2!, KEY, 'GET', `/webhooks/1/deliveries/${endpoint!.id}`)
      attempts = detail.body!.data.attempt_history
      return attempts.length > 0
    }, 15_000)
    expect(attempts[0]!.error).toMatch(/loopback, private or reserved address/)
    expect(received()).toBe(1)
  } finally {
    expect(await second.stop()).toBe(0)
  }
}

describe('settings removed from the config between two starts of affiliate-kit serve (kill -9 between)', () => {
  it('take their defaults on a PGlite directory', async () => {
    receiver.requests.length = 0
    await scenario(`pglite:${migratedDataDir(join(tempDir(), 'data'))}`)
  }, 120_000)

  it.skipIf(!DATABASE_URL)(`take their defaults on PostgreSQL${DATABASE_URL ? '' : ` (${NO_DATABASE_REASON})`}`, async () => {
    receiver.requests.length = 0
    const database = await freshDatabase()
    try {
      await scenario(database.url)
    } finally {
      await database.drop()
    }
  }, 120_000)
})
