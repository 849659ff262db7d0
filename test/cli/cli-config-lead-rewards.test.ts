// The server config takes the lead and trial rules (docs/commissions.md "Leads and trials"):
// `commission.trial` and `fraud.signupsPerAffiliatePerDay` load as the project settings do, and
// a bad value stops the server naming the key.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig, projectSettingsOf } from '../../src/cli/config.js'
import { tempDirs } from '../support/cli/temp-dirs.js'

const tempDir = tempDirs('affiliate-kit-lead-rewards')

const write = (dir: string, name: string, config: unknown) => {
  writeFileSync(join(dir, name), JSON.stringify(config))
  return join(dir, name)
}

describe('config: lead and trial rules', () => {
  it('loads commission.trial and fraud.signupsPerAffiliatePerDay into the project settings', () => {
    const config = {
      commission: { purchase: { type: 'percentage', rate: 30 }, signup: { amount: '1.00' }, trial: { amount: '5.00', clawbackUnpaid: true } },
      fraud: { signupsPerAffiliatePerDay: { max: 50, action: 'reject' } },
    }
    const settings = projectSettingsOf(loadConfig(write(tempDir(), 'leads.json', config))) as { commission: unknown; fraud: unknown }
    expect(settings.commission).toEqual(config.commission)
    expect(settings.fraud).toEqual(config.fraud)
  })

  it('refuses a bad trial rule or per-affiliate bound, naming the key', () => {
    const dir = tempDir()
    const purchase = { type: 'percentage', rate: 30 }
    expect(() => loadConfig(write(dir, 'flag.json', { commission: { purchase, trial: { amount: '5.00', clawbackUnpaid: 'yes' } } }))).toThrow(/commission\.trial\.clawbackUnpaid.*must be a boolean/)
    expect(() => loadConfig(write(dir, 'extra.json', { commission: { purchase, trial: { amount: '5.00', after: 14 } } }))).toThrow(/commission\.trial/)
    expect(() => loadConfig(write(dir, 'max.json', { fraud: { signupsPerAffiliatePerDay: { max: 1.5, action: 'reject' } } }))).toThrow(/fraud\.signupsPerAffiliatePerDay\.max.*must be an integer/)
  })
})
