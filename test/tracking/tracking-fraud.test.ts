// The fraud signals the surfaces record (docs/fraud.md "Signals"), end to end: a referral link or a
// click report carrying a paid ad's click id marks the click, and the portal marks the affiliate's
// own browser; a conversion naming the click (the ak_ref value) is then held or rejected.
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { testClock } from '../../src/core/model/clock.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import { createAffiliateProgram } from '../../src/index.js'
import { createPortal } from '../../src/portal/index.js'
import { createTrackingHandler } from '../../src/tracking/index.js'
import { Agent } from '../support/portal/helpers.js'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

async function setup(fraud: NonNullable<ProjectSettingsInput['fraud']>) {
  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage, clock: testClock('2026-03-10T10:00:00Z'), settings: { fraud } })
  await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const { key } = await program.keys.createPublishable({ name: 'website' })
  const tracking = createTrackingHandler(program, { landingUrl: 'https://shop.example/' })
  /** The signed referral (the ak_ref cookie) a link visit from this address gave. */
  const linkClick = async (path: string, address: string) => {
    const response = await tracking(new Request(`https://links.example${path}`, { headers: { 'user-agent': BROWSER } }), { clientAddress: address })
    return /^ak_ref=([^;]+);/.exec(response.headers.get('set-cookie') ?? '')![1]!
  }
  const report = (body: unknown, address: string) =>
    tracking(
      new Request('https://links.example/r/-/clicks', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'user-agent': BROWSER },
        body: JSON.stringify(body),
      }),
      { clientAddress: address },
    )
  const buy = async (email: string, click: string) => (await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email, baseValue: 100, click })).conversion
  return { program, storage, linkClick, report, buy }
}

describe('paid-ad clicks', () => {
  it('a link reached with ?gclid= marks its click: the conversion naming it is rejected; a click without one is not', async () => {
    const { linkClick, buy } = await setup({ paidAdsClick: 'reject' })
    const ad = await linkClick('/r/ANN?gclid=Cj0KCQiA', '203.0.113.7')
    expect(await buy('ad@example.com', ad)).toMatchObject({ status: 'rejected', reviewReason: 'paid ad: the click carried gclid' })
    const organic = await linkClick('/r/ANN?utm_source=newsletter', '198.51.100.2')
    expect(await buy('organic@example.com', organic)).toMatchObject({ status: 'active', reviewReason: null })
  })

  it('a click report with paid_ad_click_id marks its click; an unknown id kind is a 400', async () => {
    const { report, buy } = await setup({ paidAdsClick: 'review' })
    const reported = await report({ referral_code: 'ANN', paid_ad_click_id: 'msclkid' }, '203.0.113.8')
    expect(reported.status).toBe(201)
    const { referral } = (await reported.json()) as { referral: string }
    expect(await buy('bing@example.com', referral)).toMatchObject({ status: 'review', reviewReason: 'paid ad: the click carried msclkid' })
    const bad = await report({ referral_code: 'ANN', paid_ad_click_id: 'utm_source' }, '203.0.113.9')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'paid_ad_click_id: must be one of gclid, fbclid, msclkid' })
  })
})

describe("the affiliate's own browser", () => {
  it("a click from the browser and address the affiliate opened its portal from today is held; another address's is not", async () => {
    const { program, storage, linkClick, buy } = await setup({ sameVisitor: 'review' })
    const portal = createPortal(program, { sessions: storage })
    const agent = new Agent((request) => {
      const headers = new Headers(request.headers)
      headers.set('user-agent', BROWSER)
      return portal(new Request(request, { headers }), { clientAddress: '203.0.113.50' })
    })
    const { url } = await portal.createSignInLink('ann@example.com')
    expect((await agent.signIn(url)).status).toBe(303)
    expect((await agent.get('/portal/')).status).toBe(200)
    const own = await linkClick('/r/ANN', '203.0.113.50')
    expect(await buy('friend@example.com', own)).toMatchObject({ status: 'review', reviewReason: "same visitor: the click came from the affiliate's own browser" })
    const other = await linkClick('/r/ANN', '198.51.100.3')
    expect(await buy('stranger@example.com', other)).toMatchObject({ status: 'active', reviewReason: null })
  })
})
