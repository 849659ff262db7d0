// Importing from Tolt, FirstPromoter and Dub through their REST APIs (local servers implementing
// each tool's documented endpoints, authentication and paging): the ledger per affiliate matches
// hand-computed totals to the cent, link tokens become referral codes, a rerun creates nothing, a
// refused key is one line and a 429 is retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type LinkOptions } from '../../src/index.js'
import { dubSource, firstPromoterSource, importProgram, type ImportSource, toltSource } from '../../src/importers/index.js'
import { KEYS, startFakeTool, TOLT_PROGRAM, type FakeTool, type ToolName } from '../support/importers/tool-servers.js'
import { ledger, statuses } from '../support/importers/ledger.js'

/** A program on 2026-03-01 with a 30-day hold and a "sales" sub-program. */
async function program(links?: LinkOptions): Promise<AffiliateProgram> {
  return createAffiliateProgram({
    storage: memoryStorage(),
    clock: testClock('2026-03-01T00:00:00.000Z'),
    settings: { currency: 'USD', holdPeriodDays: 30, subPrograms: { sales: { commission: { purchase: { type: 'percentage', rate: 20 } } } } },
    ...(links ? { links } : {}),
  })
}

const servers = {} as Record<ToolName, FakeTool>
beforeAll(async () => {
  for (const tool of ['tolt', 'firstpromoter', 'dub'] as const) servers[tool] = await startFakeTool(tool)
})
afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())))

const sources: Record<ToolName, (key?: string, onRetry?: (line: string) => void) => ImportSource> = {
  tolt: (key = KEYS.tolt, onRetry) => toltSource({ apiKey: key, programId: TOLT_PROGRAM, apiUrl: servers.tolt.url, onRetry }),
  firstpromoter: (key = KEYS.firstpromoter, onRetry) => firstPromoterSource({ apiKey: key, apiUrl: servers.firstpromoter.url, onRetry }),
  dub: (key = KEYS.dub, onRetry) => dubSource({ apiKey: key, apiUrl: servers.dub.url, pageSize: 2, onRetry }),
}

describe('import tolt', () => {
  it('partners, ?ref= links, promotion codes, customers and commissions; the ledger to the cent; a rerun creates nothing', async () => {
    const target = await program()
    const report = await importProgram(target, sources.tolt())

    expect(report.records.filter((r) => r.outcome === 'error')).toEqual([])
    expect(report.counts.affiliates).toMatchObject({ created: 3 })
    expect(report.counts.coupons).toMatchObject({ created: 1 })
    expect(report.counts.customers).toMatchObject({ created: 4 })
    expect(report.counts.commissions).toMatchObject({ created: 7 })
    // By hand: michael 19.99 paid + 19.99 approved + 15.00 pending (25.00 rejected and the refunded
    // one, 0 in Tolt, earn nothing); dwight 12.34 approved (suspended in Tolt); jim 50.00 paid.
    expect(await ledger(target, 'michael@example.com')).toEqual({ total: '54.98', paid: '19.99', unpaid: '34.99' })
    expect(await ledger(target, 'dwight@example.com')).toEqual({ total: '12.34', paid: '0.00', unpaid: '12.34' })
    expect(await ledger(target, 'jim@example.com')).toEqual({ total: '50.00', paid: '50.00', unpaid: '0.00' })
    expect(report.affiliates).toContainEqual({ email: 'michael@example.com', commissions: 5, currency: 'USD', total: '54.98', unpaid: '34.99', ledgerTotal: '54.98', ledgerUnpaid: '34.99' })
    const michael = await target.affiliates.get('michael@example.com')
    expect(michael).toMatchObject({ name: 'Michael Scott', referralCode: 'michael', paypalEmail: 'michael.paypal@example.com', partnerSlug: 'sales' })
    expect(await target.affiliates.get('dwight@example.com')).toMatchObject({ status: 'inactive', referralCode: 'dwight' })
    // His second ?ref= link is a link alias: both tokens keep attributing to him.
    expect(await target.affiliates.aliases(michael.id)).toEqual(['mscott'])
    expect((await target.trackClick({ referralCode: 'mscott' })).affiliateId).toBe(michael.id)
    expect(await statuses(target)).toMatchObject({ 'import:tolt:comm_3': 'pending', 'import:tolt:comm_4': 'rejected', 'import:tolt:comm_5': 'rejected', 'import:tolt:comm_2': 'pending', 'import:tolt:comm_6': 'active' })
    expect((await target.coupons.list({ code: 'MICHAEL20' })).items[0]).toMatchObject({ affiliateId: michael.id })
    expect((await target.referrals.get('kevin@example.com')).conversionStatus).toBe('pending')
    // Paged by cursor: 7 commissions, 2 a page, each page after the last id of the one before.
    const pages = servers.tolt.requests.filter((path) => path.startsWith('/v1/commissions'))
    expect(pages).toHaveLength(4)
    expect(pages[1]).toContain('starting_after=comm_5')

    const again = await importProgram(target, sources.tolt())
    for (const entity of ['affiliates', 'coupons', 'customers', 'commissions'] as const) expect(again.counts[entity].created, entity).toBe(0)
    expect(again.counts.commissions.existing).toBe(7)
    expect(await ledger(target, 'michael@example.com')).toEqual({ total: '54.98', paid: '19.99', unpaid: '34.99' })
    expect((await target.conversions.list({ limit: 100 })).total).toBe(7)
  })
})

describe('import firstpromoter', () => {
  it('promoters, ?fpr= ref ids, promo codes, leads and cash rewards; the ledger to the cent; a rerun creates nothing', async () => {
    const target = await program()
    const report = await importProgram(target, sources.firstpromoter())

    expect(report.records.filter((r) => r.outcome === 'error')).toEqual([])
    expect(report.counts.affiliates).toMatchObject({ created: 3 })
    expect(report.counts.coupons).toMatchObject({ created: 1 })
    expect(report.counts.customers).toMatchObject({ created: 4 })
    // Five cash rewards; the points reward is not money.
    expect(report.counts.commissions).toMatchObject({ created: 5 })
    // By hand: leslie 20.00 approved + 10.00 pending (20.00 denied earns nothing); ron 7.77; ann 43.21 paid.
    expect(await ledger(target, 'leslie@example.com')).toEqual({ total: '30.00', paid: '0.00', unpaid: '30.00' })
    expect(await ledger(target, 'ron@example.com')).toEqual({ total: '7.77', paid: '0.00', unpaid: '7.77' })
    expect(await ledger(target, 'ann@example.com')).toEqual({ total: '43.21', paid: '43.21', unpaid: '0.00' })
    expect(await target.affiliates.get('leslie@example.com')).toMatchObject({ name: 'Leslie Knope', referralCode: 'leslie', paypalEmail: 'leslie.paypal@example.com' })
    expect(await target.affiliates.get('ron@example.com')).toMatchObject({ status: 'inactive' })
    expect(report.records).toContainEqual(expect.objectContaining({ outcome: 'warning', field: 'campaign' }))
    expect(await statuses(target)).toMatchObject({ 'import:firstpromoter:6': 'pending', 'import:firstpromoter:4': 'rejected', 'import:firstpromoter:1': 'active' })
    expect((await target.coupons.list({ code: 'LESLIE10' })).items).toHaveLength(1)
    expect((await target.referrals.get('april@example.com')).conversionStatus).toBe('pending')
    // Paged by the Link header: 6 rewards, 2 a page.
    expect(servers.firstpromoter.requests.filter((path) => path.startsWith('/api/v1/rewards/list'))).toEqual(['/api/v1/rewards/list?page=1', '/api/v1/rewards/list?page=2', '/api/v1/rewards/list?page=3'])

    const again = await importProgram(target, sources.firstpromoter())
    for (const entity of ['affiliates', 'coupons', 'customers', 'commissions'] as const) expect(again.counts[entity].created, entity).toBe(0)
    expect(await ledger(target, 'leslie@example.com')).toEqual({ total: '30.00', paid: '0.00', unpaid: '30.00' })
    expect((await target.conversions.list({ limit: 100 })).total).toBe(5)
  })
})

describe('import dub', () => {
  it('partners, link keys, customers and commissions; the ledger to the cent; a rerun creates nothing', async () => {
    const target = await program()
    const report = await importProgram(target, sources.dub())

    expect(report.records.filter((r) => r.outcome === 'error')).toEqual([])
    expect(report.counts.affiliates).toMatchObject({ created: 3 })
    expect(report.counts.customers).toMatchObject({ created: 4 })
    expect(report.counts.commissions).toMatchObject({ created: 6 })
    // By hand: alex 25.00 paid + 25.00 processed (inside the 30-day hold here: pending) + 12.50 pending (25.00 refunded earns nothing);
    // sam 9.99 (banned in Dub); kim 36.00 paid.
    expect(await ledger(target, 'alex@example.com')).toEqual({ total: '62.50', paid: '25.00', unpaid: '37.50' })
    expect(await ledger(target, 'sam@example.com')).toEqual({ total: '9.99', paid: '0.00', unpaid: '9.99' })
    expect(await ledger(target, 'kim@example.com')).toEqual({ total: '36.00', paid: '36.00', unpaid: '0.00' })
    expect(await target.affiliates.get('alex@example.com')).toMatchObject({ name: 'Alex Doe', referralCode: 'alex' })
    expect(await target.affiliates.get('sam@example.com')).toMatchObject({ status: 'blocked' })
    expect(await statuses(target)).toMatchObject({ 'import:dub:cm_4': 'pending', 'import:dub:cm_5': 'rejected', 'import:dub:cm_2': 'pending', 'import:dub:cm_1': 'active' })
    expect((await target.referrals.get('max@example.com')).conversionStatus).toBe('pending')
    expect((await target.referrals.get('lee@example.com')).conversionStatus).toBe('converted')
    // The first link's key is the referral code; the other links are links with Dub's destination and UTM parameters.
    expect(report.counts.links).toMatchObject({ created: 4 })
    const links = (await target.links.list({ affiliate: 'alex@example.com' })).items
    expect(links).toEqual([
      expect.objectContaining({ key: 'alex-yt', destination: 'https://www.example.com/pricing?plan=pro', utmSource: 'youtube', utmMedium: 'video', utmCampaign: 'launch', utmTerm: null, utmContent: null }),
    ])
    expect((await target.links.resolve('ALEX-YT'))?.affiliate.email).toBe('alex@example.com')
    expect(servers.dub.requests.filter((path) => path.startsWith('/commissions'))).toEqual([
      '/commissions?page=1&pageSize=2',
      '/commissions?page=2&pageSize=2',
      '/commissions?page=3&pageSize=2',
      '/commissions?page=4&pageSize=2',
    ])

    const again = await importProgram(target, sources.dub())
    for (const entity of ['affiliates', 'coupons', 'customers', 'commissions', 'links'] as const) expect(again.counts[entity].created, entity).toBe(0)
    expect(again.counts.links).toMatchObject({ existing: 4 })
    expect((await target.links.list()).total).toBe(1)
    expect(await ledger(target, 'alex@example.com')).toEqual({ total: '62.50', paid: '25.00', unpaid: '37.50' })
  })
})

describe('import dub: link destinations', () => {
  it("keeps a link whose destination the program's allowed origins refuse, without that destination, and says so", async () => {
    const target = await program({ allowedOrigins: ['https://shop.example'] })
    const report = await importProgram(target, sources.dub())
    expect(report.records.filter((r) => r.outcome === 'error')).toEqual([])
    expect(report.records.filter((r) => r.entity === 'links' && r.outcome === 'warning')).toEqual([
      {
        entity: 'links',
        sourceId: 'pn_alex',
        outcome: 'warning',
        field: 'destination',
        message: 'link "alex-yt": destination: https://www.example.com is not an allowed origin (allowed: https://shop.example); the link is imported without it',
      },
    ])
    expect((await target.links.resolve('alex-yt'))?.link).toMatchObject({ destination: null, utmSource: 'youtube', utmCampaign: 'launch' })
  })
})

describe('each tool: a refused key is one line before anything is written, a dry run writes nothing, a 429 is retried', () => {
  const hints: Record<ToolName, string> = {
    tolt: 'Tolt refused the API key (401): use the API key from Settings → Integrations',
    firstpromoter: 'FirstPromoter refused the API key (401): use the API key from Settings → Integrations',
    dub: 'Dub refused the API key (401): use a workspace API key (Settings → API Keys) with read access',
  }
  for (const tool of ['tolt', 'firstpromoter', 'dub'] as const) {
    it(tool, async () => {
      const target = await program()
      await expect(importProgram(target, sources[tool]('wrong'))).rejects.toThrow(hints[tool])
      expect((await target.affiliates.list()).total).toBe(0)
      // A dry run reads everything and writes nothing.
      const dry = await importProgram(target, sources[tool](), { dryRun: true })
      expect(dry.counts.affiliates.created).toBe(3)
      expect(dry.counts.commissions.created).toBeGreaterThan(4)
      expect((await target.affiliates.list()).total).toBe(0)
      expect((await target.conversions.list()).total).toBe(0)

      const path = { tolt: '/v1/partners', firstpromoter: '/api/v1/promoters/list', dub: '/partners' }[tool]
      servers[tool].rateLimit(path, 2)
      const retries: string[] = []
      const report = await importProgram(target, sources[tool](undefined, (line) => retries.push(line)))
      expect(report.counts.affiliates.created).toBe(3)
      expect(retries).toHaveLength(2)
      expect(retries[0]).toMatch(/rate limit \(429\) on .* page 1: retry 1 of 4 in 0s$/)
    })
  }
})
