// GET /payouts/due, as_of reads (now without it) and GET /ledger over real HTTP (docs/payouts.md), in both shapes.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'

describe('payouts due and the ledger over HTTP', () => {
  const servers: Server[] = []
  const bases: Record<string, string> = {}
  let program: AffiliateProgram
  let key: string
  const ids: Record<string, number> = {}
  const get = (shape: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${bases[shape]}/api/v1${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } })

  beforeAll(async () => {
    const clock = testClock('2026-01-05T10:00:00Z')
    program = await createAffiliateProgram({
      storage: memoryStorage(),
      clock,
      settings: { holdPeriodDays: 14, payouts: { minimumAmount: '50.00', termsDays: 15, schedule: { day: 1 } } },
    })
    key = (await program.keys.create({ scopes: ['*'] })).key
    ids.ann = (await program.affiliates.create({ email: 'ann@example.com' })).id
    ids.annSale = (await program.conversions.create({ type: 'purchase', affiliateId: ids.ann, baseValue: 200 })).conversion.id // 60.00
    ids.cat = (await program.affiliates.create({ email: 'cat@example.com' })).id
    await program.conversions.create({ type: 'purchase', affiliateId: ids.cat, baseValue: 100 }) // 30.00
    clock.set('2026-02-16T00:00:00Z')
    ids.payout = (await program.payouts.create({ affiliateId: ids.cat, amount: '10.00' })).id
    clock.set('2026-02-20T00:00:00Z')
    ids.late = (await program.affiliates.create({ email: 'late@example.com' })).id
    for (const shape of ['primary', 'alternative'] as const) {
      const server = createServer(createHandler(program, { shape, rateLimit: false }).node)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      servers.push(server)
      bases[shape] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    }
  })
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve))
  })

  it('lists who is due, how much and which conversions, in both shapes', async () => {
    const primary = await get('primary', '/payouts/due')
    expect(primary.status).toBe(200)
    expect(await primary.json()).toEqual({
      success: true,
      data: [{ affiliate_id: ids.ann, affiliate_email: 'ann@example.com', amount: '60.00', currency: 'USD', conversion_ids: [ids.annSale] }],
    })
    const alternative = await get('alternative', '/payouts/due')
    expect(await alternative.json()).toEqual({
      success: true,
      data: { due: [{ affiliateId: `aff_${ids.ann}`, affiliateEmail: 'ann@example.com', amount: 60, currency: 'USD', conversionIds: [ids.annSale] }] },
    })
  })

  it('answers balances as they stood at as_of, and 404 for an affiliate that did not exist yet', async () => {
    const before = await get('primary', `/affiliates/cat@example.com/balances?as_of=${encodeURIComponent('2026-02-15T23:59:59Z')}`)
    expect((await before.json()).data).toMatchObject({ total_earnings: '30.00', paid_earnings: '0.00', unpaid_earnings: '30.00', payable_earnings: '0.00', held_earnings: '0.00', credit: '0.00' })
    const after = await get('primary', `/affiliates/cat@example.com/balances?as_of=${encodeURIComponent('2026-02-16T00:00:00Z')}`)
    expect((await after.json()).data).toMatchObject({ paid_earnings: '10.00', unpaid_earnings: '20.00', payable_earnings: '20.00', credit: '10.00' })
    const record = await get('primary', `/affiliates/cat@example.com?as_of=${encodeURIComponent('2026-01-10T00:00:00+01:00')}`)
    expect((await record.json()).data).toMatchObject({ unpaid_earnings: '30.00', held_earnings: '30.00', eligible_earnings: '0.00' })
    expect((await get('primary', `/affiliates/late@example.com?as_of=${encodeURIComponent('2026-02-19T00:00:00Z')}`)).status).toBe(404)
    expect((await get('alternative', `/affiliates/aff_${ids.late}/balances?as_of=${encodeURIComponent('2026-02-19T00:00:00Z')}`)).status).toBe(404)
    const bad = await get('primary', '/affiliates/cat@example.com/balances?as_of=2026-02-19')
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toContain('as_of')
    const payouts = await get('primary', `/payouts?as_of=${encodeURIComponent('2026-02-15T00:00:00Z')}`)
    expect((await payouts.json()).data).toEqual([])
  })

  it('without as_of, balances are those of now (an affiliate, the program; both shapes)', async () => {
    const now = encodeURIComponent('2026-02-20T00:00:00Z') // the test clock's
    for (const [shape, path] of [
      ['primary', '/affiliates/cat@example.com/balances'],
      ['alternative', `/affiliates/aff_${ids.cat}/balances`],
      ['primary', '/ledger/balances'],
      ['alternative', '/ledger/balances'],
    ] as const) {
      const implicit = await get(shape, path)
      expect(implicit.status).toBe(200)
      expect(await implicit.json()).toEqual(await (await get(shape, `${path}?as_of=${now}`)).json())
    }
    expect((await (await get('primary', '/affiliates/cat@example.com/balances')).json()).data).toMatchObject({ paid_earnings: '10.00', unpaid_earnings: '20.00', payable_earnings: '20.00' })
  })

  it('exports the movements of a period as JSON or CSV, summing to the change of unpaid', async () => {
    const period = `from=${encodeURIComponent('2026-01-01T00:00:00Z')}&to=${encodeURIComponent('2026-03-01T00:00:00Z')}`
    const json = await (await get('primary', `/ledger?${period}`)).json()
    expect(json.data.map((entry: { type: string; amount: string }) => [entry.type, entry.amount])).toEqual([
      ['commission', '60.00'],
      ['commission', '30.00'],
      ['release', '0.00'],
      ['release', '0.00'],
      ['payout', '-10.00'],
    ])
    const csv = await get('alternative', `/ledger?${period}`, { accept: 'text/csv' })
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect((await csv.text()).split('\r\n')).toEqual([
      'at,affiliate_id,type,amount,currency,conversion_id,payout_id',
      `2026-01-05T10:00:00.000Z,${ids.ann},commission,60.00,USD,${ids.annSale},`,
      `2026-01-05T10:00:00.000Z,${ids.cat},commission,30.00,USD,${ids.annSale! + 1},`,
      `2026-01-19T10:00:00.000Z,${ids.ann},release,0.00,USD,${ids.annSale},`,
      `2026-01-19T10:00:00.000Z,${ids.cat},release,0.00,USD,${ids.annSale! + 1},`,
      `2026-02-16T00:00:00.000Z,${ids.cat},payout,-10.00,USD,,${ids.payout}`,
      '',
    ])
    expect((await get('primary', `/ledger?from=${encodeURIComponent('2026-03-01T00:00:00Z')}&to=${encodeURIComponent('2026-01-01T00:00:00Z')}`)).status).toBe(400)
  })
})
