// The portal's payout request form (docs/payouts.md "Payout requests"): a request below the
// minimum, or in a program that takes none, is refused with its reason and records nothing.
import { describe, expect, it } from 'vitest'
import { Agent, portalFixture } from '../support/portal/helpers.js'

async function signedIn(payouts: { minimumAmount: string; requests: boolean }) {
  const fixture = await portalFixture()
  const settings = await fixture.program.settings()
  await fixture.program.projects.updateSettings(fixture.program.projectId, { ...settings, payouts } as Parameters<typeof fixture.program.projects.updateSettings>[1])
  const affiliate = await fixture.program.affiliates.create({ email: 'ivy@example.com' })
  await fixture.program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 50 }) // 15.00
  fixture.clock.set('2026-04-02T00:00:00Z') // hold ended March 3rd: payable April 1st
  const agent = new Agent(fixture.portal)
  await agent.signIn((await fixture.portal.createSignInLink('ivy@example.com')).url)
  return { ...fixture, agent }
}

describe('portal payout requests', () => {
  it('refuses a request below the minimum with the payable balance and the minimum, recording nothing', async () => {
    const { agent, program } = await signedIn({ minimumAmount: '20.00', requests: true })
    const csrf = await agent.csrfOf('/portal/payouts')
    const response = await agent.post('/portal/payouts', { csrf })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('the payable balance of 15.00 is below the minimum payout of 20.00')
    expect((await program.payouts.requests()).total).toBe(0)
  })

  it('refuses a request when the program takes none, and records one at the minimum', async () => {
    const off = await signedIn({ minimumAmount: '10.00', requests: false })
    expect(await (await off.agent.get('/portal/payouts')).text()).not.toContain('Request payout')
    const refused = await off.agent.post('/portal/payouts', { csrf: await off.agent.csrfOf('/portal/settings') })
    expect(refused.status).toBe(409)
    expect((await off.program.payouts.requests()).total).toBe(0)

    const on = await signedIn({ minimumAmount: '10.00', requests: true })
    const accepted = await on.agent.post('/portal/payouts', { csrf: await on.agent.csrfOf('/portal/payouts') })
    expect(accepted.status).toBe(303)
    expect((await on.program.payouts.requests()).items).toMatchObject([{ amount: '15.00', status: 'open' }])
  })
})
