// Stripe Connect onboarding (docs/payouts.md "Stripe Connect") from the portal: the affiliate's
// button creates its Express connected account once (recorded on the affiliate) and an account link
// at the local Stripe (real HTTP); transfers then go to that account without naming it.
import { afterEach, describe, expect, it } from 'vitest'
import { stripeConnect } from '../../src/payouts/stripe/connect.js'
import { stripeTransfers } from '../../src/payouts/stripe/transfers.js'
import { earnings } from '../support/payouts/earnings.js'
import { SECRET_KEY, startFakeStripe } from '../support/payouts/stripe-fake.js'
import { Agent, portalFixture } from '../support/portal/helpers.js'

type Fake = Awaited<ReturnType<typeof startFakeStripe>>
let fake: Fake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function signedIn(options: { stripe: boolean; connect?: boolean; publicUrl?: boolean }) {
  fake = await startFakeStripe({ accounts: [] })
  const holder: { connect?: ReturnType<typeof stripeConnect> } = {}
  const fixture = await portalFixture({
    ...(options.publicUrl === false ? {} : { publicUrl: 'https://partners.example.com' }),
    ...(options.connect === false ? {} : { stripeConnect: { onboardingLink: (id, urls) => holder.connect!.onboardingLink(id, urls) } }),
  })
  holder.connect = stripeConnect(fixture.program, { secretKey: SECRET_KEY, baseUrl: fake.url })
  const settings = await fixture.program.settings()
  await fixture.program.projects.updateSettings(fixture.program.projectId, { ...settings, payouts: { automatic: { stripe: options.stripe } } } as Parameters<typeof fixture.program.projects.updateSettings>[1])
  const affiliate = await fixture.program.affiliates.create({ email: 'ivy@example.com' })
  await fixture.program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100 }) // 30.00
  fixture.clock.advance({ days: 31 })
  const agent = new Agent(fixture.portal)
  await agent.signIn((await fixture.portal.createSignInLink('ivy@example.com')).url)
  return { ...fixture, agent, affiliate }
}

describe('Stripe Connect onboarding from the portal', () => {
  it('creates the connected account once, records it, links to Stripe\'s onboarding; transfers then go there', async () => {
    const { agent, program, affiliate } = await signedIn({ stripe: true })
    const page = await (await agent.get('/portal/payouts')).text()
    expect(page).toContain('Connect with Stripe')
    const answer = await agent.post('/portal/payouts/stripe', { csrf: await agent.csrfOf('/portal/payouts') })
    expect(answer.status).toBe(200)
    const body = await answer.text()
    expect(body).toContain('href="https://connect.stripe.com/setup/e/acct_1001/link1"')
    expect(fake!.accountsCreated).toEqual([{ id: 'acct_1001', email: 'ivy@example.com', metadata: { 'metadata[affiliate_id]': String(affiliate.id), 'metadata[project_id]': program.projectId } }])
    expect(fake!.accountLinks).toEqual([{ account: 'acct_1001', returnUrl: 'https://partners.example.com/portal/payouts?stripe=return', refreshUrl: 'https://partners.example.com/portal/payouts?stripe=refresh' }])
    expect(await program.providerPayouts.connectedAccount(affiliate.id)).toBe('acct_1001')

    // Back from Stripe, then again: the same account, a fresh link.
    const back = await (await agent.get('/portal/payouts?stripe=return')).text()
    expect(back).toContain('Welcome back from Stripe')
    expect(back).toMatch(/ending in <span data-stripe-account>1001<\/span>/)
    await agent.post('/portal/payouts/stripe', { csrf: await agent.csrfOf('/portal/payouts') })
    expect(fake!.accountsCreated).toHaveLength(1)
    expect(fake!.accountLinks.map((link) => link.account)).toEqual(['acct_1001', 'acct_1001'])

    const paid = await stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: fake!.url }).pay({ affiliate: affiliate.id, amount: '30.00' })
    expect(paid).toMatchObject({ state: 'paid', destination: 'acct_1001' })
    expect(fake!.transfers).toMatchObject([{ destination: 'acct_1001', amount: 3000 }])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '0.00', credit: '0.00' })
  })

  it('a crash after Stripe created the account but before it was recorded: the retry gets the same account back', async () => {
    const { program, affiliate, storage } = await signedIn({ stripe: true })
    const connect = stripeConnect(program, { secretKey: SECRET_KEY, baseUrl: fake!.url })
    const first = await connect.accountOf(affiliate.id)
    // Forget it, as a process that died before recording it would have.
    await storage.transaction((tx) => tx.affiliates.update(program.projectId, affiliate.id, { stripeAccountId: null }))
    expect(await connect.accountOf(affiliate.id)).toBe(first)
    expect(fake!.accountsCreated).toHaveLength(1)
  })

  it('without Stripe payouts or without the option: no card, and the action is 404; a transfer with no account is refused, nothing held', async () => {
    const off = await signedIn({ stripe: false })
    expect(await (await off.agent.get('/portal/payouts')).text()).not.toContain('Connect with Stripe')
    expect((await off.agent.post('/portal/payouts/stripe', { csrf: await off.agent.csrfOf('/portal/payouts') })).status).toBe(404)
    await fake!.close()
    const bare = await signedIn({ stripe: true, connect: false })
    expect(await (await bare.agent.get('/portal/payouts')).text()).not.toContain('Connect with Stripe')
    expect(fake!.accountsCreated).toEqual([])
    await expect(stripeTransfers(bare.program, { secretKey: SECRET_KEY, baseUrl: fake!.url }).pay({ affiliate: bare.affiliate.id, amount: '30.00' })).rejects.toMatchObject({ status: 409 })
    expect(await earnings(bare.program, bare.affiliate.id)).toEqual({ paid: '0.00', unpaid: '30.00', credit: '0.00' })
  })

  it('without the portal\'s publicUrl: no card and 404, whatever Host the request names (Stripe\'s return address is never built on it)', async () => {
    const { agent } = await signedIn({ stripe: true, publicUrl: false })
    expect(await (await agent.get('/portal/payouts')).text()).not.toContain('Connect with Stripe')
    expect((await agent.post('/portal/payouts/stripe', { csrf: await agent.csrfOf('/portal/payouts') })).status).toBe(404)
    expect(fake!.accountLinks).toEqual([])
  })

  it('Stripe refusing: the page says so (502), and the affiliate can try again', async () => {
    const { agent, program, affiliate } = await signedIn({ stripe: true })
    await fake!.close()
    fake = undefined
    const answer = await agent.post('/portal/payouts/stripe', { csrf: await agent.csrfOf('/portal/payouts') })
    expect(answer.status).toBe(502)
    expect(await answer.text()).toContain('Stripe could not start the onboarding now')
    expect(await program.providerPayouts.connectedAccount(affiliate.id)).toBeNull()
  })
})
