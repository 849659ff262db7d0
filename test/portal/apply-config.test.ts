// The standalone server's application page settings (README config reference, docs/onboarding.md):
// portal.application and subPrograms.<slug>.signup read from the config file, the page they make,
// and a wrong value stopping the start with a message naming it.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { loadConfig, projectSettingsOf } from '../../src/cli/config.js'
import { configuredPortal } from '../../src/cli/portal-mount.js'
import { createAffiliateProgram } from '../../src/index.js'
import { Agent } from '../support/portal/helpers.js'

function configFile(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ak-apply-')), 'affiliate.config.json')
  writeFileSync(path, JSON.stringify(config))
  return path
}

const COMMISSION = { purchase: { type: 'percentage', rate: 30 } }

describe('application settings in the server config', () => {
  it('serves the page its config describes: fields, terms, modes per sub-program', async () => {
    const config = loadConfig(
      configFile({
        subPrograms: { creators: { commission: COMMISSION, signup: 'open' }, vip: { commission: COMMISSION, signup: 'closed' } },
        portal: {
          enabled: true,
          application: { signup: 'closed', termsUrl: 'https://example.com/terms', fields: [{ name: 'audience', label: 'Audience size', type: 'select', options: ['Small', 'Large'], required: true }] },
          limits: { applyPerClient: { limit: 2, windowSeconds: 60 }, applyPerEmail: false },
        },
      }),
    )
    const storage = memoryStorage()
    const program = await createAffiliateProgram({ storage, settings: projectSettingsOf(config) })
    const portal = configuredPortal(program, { sessions: storage.sessions, state: storage.keyedState }, config.portal!)
    const agent = new Agent(portal)
    expect((await agent.get('/portal/apply')).status).toBe(404)
    expect((await agent.get('/portal/apply/vip')).status).toBe(404)
    const page = await agent.get('/portal/apply/creators')
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('Audience size')
    expect(text).toContain('href="https://example.com/terms"')
  })

  it.each([
    [{ portal: { enabled: true, application: { signup: 'maybe' } } }, 'portal.application.signup'],
    [{ portal: { enabled: true, application: { colour: 'red' } } }, 'colour'],
    [{ portal: { enabled: true, application: { fields: [{ name: 'x', label: 'X', type: 'radio' }] } } }, 'portal.application.fields'],
    [{ subPrograms: { vip: { commission: COMMISSION, signup: 'sometimes' } } }, 'subPrograms.vip.signup'],
  ])('refuses %j naming the key', (config, key) => {
    expect(() => loadConfig(configFile(config))).toThrow(key)
  })

  it('stops the portal for a field the schema lets through but the page cannot draw', async () => {
    const config = loadConfig(configFile({ portal: { enabled: true, application: { fields: [{ name: 'tier', label: 'Tier', type: 'select' }] } } }))
    const storage = memoryStorage()
    const program = await createAffiliateProgram({ storage })
    expect(() => configuredPortal(program, { sessions: storage.sessions, state: storage.keyedState }, config.portal!)).toThrow('config: portal application.fields[0].options must list the choices of a select')
  })
})
