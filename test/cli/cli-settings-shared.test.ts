// Servers sharing one PostgreSQL database agree on the settings: a `serve` started without
// --config keeps what is stored, and one started with a config that changes them logs each
// change and is followed by the servers already running within a second (they read the settings
// again at most a second old). Real processes of the CLI, on one fresh database.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, run, type Running } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'
import { until } from '../support/webhooks-helpers.js'

const tempDir = tempDirs('affiliate-kit-cli-settings-shared')
const KEY = `rgk_${'SharedSettings01'.repeat(2)}`
const rate = (percent: number) => ({ commission: { purchase: { type: 'percentage', rate: percent } } })

describe.skipIf(!DATABASE_URL)(`servers on one PostgreSQL database${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('keep the stored settings when started without --config, and follow a change made by another start', async () => {
    const database = await freshDatabase()
    const dir = tempDir()
    const servers: Running[] = []
    const start = async (config?: object) => {
      const args = ['serve', '--port', '0', '--database', database.url]
      if (config) {
        const file = join(dir, `config-${servers.length}.json`)
        writeFileSync(file, JSON.stringify(config))
        args.push('--config', file)
      }
      const server = run(args, { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
      servers.push(server)
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      return { server, url: url! }
    }
    let sale = 0
    const earn = async (url: string) => {
      sale += 1
      const created = await api(url, KEY, 'POST', '/conversions', { type: 'purchase', referral_code: 'ANN', base_value: 10, reference: `sale-${sale}` })
      expect(created.status).toBe(201)
      return created.body!.data.value as number
    }
    try {
      const first = await start(rate(50))
      expect((await api(first.url, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
      expect(await earn(first.url)).toBe(5)

      // No config: the 50 % stay, for this server and the one already running.
      const second = await start()
      expect(second.server.output()).not.toMatch(/settings: /)
      expect(await earn(second.url)).toBe(5)
      expect(await earn(first.url)).toBe(5)

      // A third start with another rate logs the change, one line per setting...
      const third = await start({ ...rate(30), holdPeriodDays: 0 })
      const lines = third.server.output().split('\n').filter((line) => line.includes('settings: '))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain('settings: commission changed from {"purchase":{"rate":50,"type":"percentage"}} to {"purchase":{"rate":30,"type":"percentage"}} by the config (settings version 2)')
      expect(await earn(third.url)).toBe(3)
      // ...and the servers started before it earn by it within a second.
      for (const running of [first, second]) {
        let earned = 0
        // Spaced out, to stay well under the API's rate limit.
        await until(async () => (earned = await earn(running.url)) === 3 || (await new Promise((resolve) => setTimeout(resolve, 200, false))), 20_000)
        expect(earned).toBe(3)
      }
    } finally {
      for (const server of servers) await server.stop()
      await database.drop()
    }
  }, 180_000)
})
