// The serve config's `clicks` key (docs/analytics.md "Retention and partitions"): retentionMonths
// is read, checked like every key, and left out of the project settings.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig, projectSettingsOf } from '../../src/cli/config.js'
import { tempDirs } from '../support/cli/temp-dirs.js'

const tempDir = tempDirs('affiliate-kit-config-clicks')

describe('config: clicks', () => {
  it('takes retentionMonths, a whole number of months from 1, and keeps it out of the project settings', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ currency: 'EUR', clicks: { retentionMonths: 13 } }))
    const config = loadConfig(join(dir, 'good.json'))
    expect(config.clicks).toEqual({ retentionMonths: 13 })
    expect(projectSettingsOf(config)).toEqual({ currency: 'EUR' })
    for (const [value, message] of [
      [0, /clicks\.retentionMonths.*must be at least 1/],
      [1.5, /clicks\.retentionMonths.*whole number of months/],
      ['13', /clicks\.retentionMonths.*must be a number/],
    ] as const) {
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ clicks: { retentionMonths: value } }))
      expect(() => loadConfig(join(dir, 'bad.json'))).toThrow(message)
    }
    writeFileSync(join(dir, 'unknown.json'), JSON.stringify({ clicks: { retentionDays: 30 } }))
    expect(() => loadConfig(join(dir, 'unknown.json'))).toThrow(/clicks\.retentionDays/)
  })
})
