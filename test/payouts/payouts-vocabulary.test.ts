// One reading of payable (issue 43, 5; docs/payouts.md "When money is due"): with payout terms
// (termsDays 0: payable on the first day of the next month) a commission earned today is not
// payable yet, and the portal's overview and Payouts page, the console's Payouts, Due and
// dashboard pages and the API (GET /payouts/due, GET /affiliates/{email}/balances) all say so,
// with the day it becomes payable; on that day they all show it payable, to the cent.
import { describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { adminFixture, signedInAgent } from '../support/admin/helpers.js'
import { caller } from '../support/http/helpers.js'
import { Agent } from '../support/portal/helpers.js'

const figureOf = (page: string, name: string) => new RegExp(`data-figure="${name}">([^<]*)<`).exec(page)?.[1]
const textOf = (page: string) => page.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ')

describe('payable and due read the same on every page, in the API and against the ledger', () => {
  it('termsDays 0: earned today, payable on the 1st of next month', async () => {
    const fixture = await adminFixture()
    const { program, clock, adminKey, portal } = fixture
    const settings = await program.settings()
    await program.projects.updateSettings(program.projectId, { ...settings, holdPeriodDays: 0, payouts: { termsDays: 0, requests: true } } as Parameters<typeof program.projects.updateSettings>[1])
    clock.set('2026-03-10T09:00:00Z')
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '100.00', reference: 'order-1' }) // 30.00
    const call = caller(createHandler(program, { rateLimit: false }), adminKey)
    // Signed in afresh at each reading: sessions end long before three weeks pass.
    const read = async () => {
      const consoleAgent = await signedInAgent(fixture)
      const portalAgent = new Agent(portal)
      expect((await portalAgent.signIn((await portal.createSignInLink('ann@example.com')).url)).status).toBe(303)
      const due = ((await call('GET', '/payouts/due')).body as { data: Array<{ affiliate_email: string; amount: string }> }).data
      const balances = ((await call('GET', `/affiliates/ann@example.com/balances?as_of=${encodeURIComponent(clock.now().toISOString())}`)).body as { data: Record<string, string> }).data
      return {
        due,
        balances,
        overview: await (await portalAgent.get('/portal/')).text(),
        portalPayouts: textOf(await (await portalAgent.get('/portal/payouts')).text()),
        payouts: await (await consoleAgent.get('/admin/payouts')).text(),
        duePage: await (await consoleAgent.get('/admin/due')).text(),
        dashboard: await (await consoleAgent.get('/admin/dashboard')).text(),
      }
    }

    const today = await read()
    expect(today.balances).toMatchObject({ eligible_earnings: '30.00', payable_earnings: '0.00', unpaid_earnings: '30.00' })
    expect(today.due).toEqual([])
    expect(figureOf(today.overview, 'payable')).toBe(`${today.balances.payable_earnings} USD`)
    expect(textOf(figureOf(today.overview, 'next-payable') ?? today.overview)).toContain('30.00 USD on')
    expect(today.overview).toContain('<time datetime="2026-04-01">2026-04-01</time>')
    expect(today.overview).not.toContain('Ready for payout')
    expect(today.portalPayouts).toContain('payable now: 0.00 USD; 30.00 USD will be payable on 2026-04-01')
    expect(today.payouts).toContain('Nothing is payable right now.')
    expect(today.payouts).not.toContain('data-owed="ann@example.com"')
    expect(textOf(/<tr data-later="ann@example.com">.*?<\/tr>/s.exec(today.payouts)![0])).toBe('ann@example.com30.00 USD2026-04-01')
    expect(textOf(today.duePage)).toContain('Nobody is due a payout right now. Next: 30.00 USD becomes payable to ann@example.com on 2026-04-01.')
    expect(figureOf(today.dashboard, 'payable')).toBe('0.00 USD')

    clock.set('2026-04-01T09:00:00Z')
    const then = await read()
    expect(then.balances).toMatchObject({ eligible_earnings: '30.00', payable_earnings: '30.00' })
    expect(then.due).toEqual([expect.objectContaining({ affiliate_email: 'ann@example.com', amount: then.balances.payable_earnings })])
    expect(figureOf(then.overview, 'payable')).toBe('30.00 USD')
    expect(figureOf(then.overview, 'next-payable')).toBe('Nothing waiting')
    expect(then.portalPayouts).toContain('30.00 USD is payable now.')
    expect(/<tr data-owed="ann@example.com">.*?data-owed-amount>([^<]*)</s.exec(then.payouts)![1]).toBe('30.00 USD')
    expect(then.payouts).not.toContain('data-later="ann@example.com"')
    expect(/<tr data-due="ann@example.com">.*?data-due-amount>([^<]*)</s.exec(then.duePage)![1]).toBe('30.00 USD')
    expect(figureOf(then.dashboard, 'payable')).toBe('30.00 USD')
  })
})
