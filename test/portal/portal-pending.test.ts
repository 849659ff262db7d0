// A pending affiliate cannot use the portal (docs/onboarding.md "Pending, approved, rejected"): no
// sign-in link is made for it, a link made before it became pending no longer signs in, and a
// session it had ends at its next request. Approved, it signs in.
import { describe, expect, it } from 'vitest'
import { Agent, portalFixture } from '../support/portal/helpers.js'

describe('pending affiliates and the portal', () => {
  it('get no sign-in link, lose their links and sessions, and sign in once approved', async () => {
    const { program, portal } = await portalFixture({ publicUrl: 'http://portal.test' })
    await program.affiliates.create({ email: 'pat@example.com', status: 'pending' })
    await expect(portal.createSignInLink('pat@example.com')).rejects.toThrow('this affiliate is pending')

    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const agent = new Agent(portal)
    expect((await agent.signIn((await portal.createSignInLink('ann@example.com')).url)).status).toBe(303)
    expect((await agent.get('/portal/')).status).toBe(200)
    const unused = (await portal.createSignInLink('ann@example.com')).url
    await program.affiliates.update(ann.id, { status: 'pending' })
    const ended = await agent.get('/portal/')
    expect(ended.status).toBe(303)
    expect(ended.headers.get('location')).toBe('/portal/sign-in?ended=1')
    expect((await new Agent(portal).signIn(unused)).status).toBe(400)

    await program.applications.approve(ann.id)
    expect((await new Agent(portal).signIn((await portal.createSignInLink('ann@example.com')).url)).status).toBe(303)
  })
})
