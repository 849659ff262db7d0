// The price-list scenario of docs/commissions.md on every adapter: Starter at 20 %, Pro at 15 %, a
// setup fee excluded, renewals staged 3 x 40 % then 20 % and capped at 12 payments, an affiliate
// at 50 %, a Gold tier reached mid-month (the next conversion earns Gold's 40 %, earlier ones keep
// theirs, the tier drops after a quiet month) and a three-customers bonus, paid once in a month
// whose twenty invoices arrive at once (several connections on PostgreSQL). Once through program
// calls, once through signed Stripe events (the first invoice with a subscription line and a
// setup-fee line): both give the hand-computed ledger below, to the cent, and the same ledger.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram, StoragePort, TestClock } from '../../src/index.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import { mapStripeEvent } from '../../src/providers/stripe/map.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { balancesOf, ledgerOf } from '../support/providers/ledger.js'
import { checkoutCompleted, invoicePaid, legacyChargeRefunded, legacyInvoicePaid, type LineInput } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import type { CaseContext } from './harness.js'
import { recordAllEvents, recordedEvents } from './helpers.js'

const pct = (rate: number) => ({ type: 'percentage' as const, rate })

export const PRICE_LIST_SETTINGS: ProjectSettingsInput = {
  commission: {
    purchase: pct(30),
    recurring: { maxPayments: 12, stages: [{ payments: 3, rate: 40 }, { rate: 20 }] },
    products: { prod_starter: { purchase: pct(20) }, prod_pro: { purchase: pct(15) }, prod_setup: { excluded: true } },
    // Products come before tiers: Gold's 40 % shows on products without a rule (onboarding).
    tiers: [{ name: 'Gold', minRevenue: '1000.00', purchase: pct(40) }],
    tierPeriod: 'month',
    bonuses: [{ name: 'Three customers', customers: 3, amount: '50.00', period: 'month' }],
  },
}

interface Invoice {
  id: string
  at: string
  customer: string
  email: string
  subscription?: string
  first: boolean
  lines: LineInput[]
  /** Invoices of one batch are paid at once (concurrently). */
  batch?: string
}

const pro = (id: string): LineInput => ({ id: `il_${id}_pro`, product: 'prod_pro', amount: 10000 })
const setupFee = (id: string): LineInput => ({ id: `il_${id}_setup`, product: 'prod_setup', amount: 5000 })
const monthOf = (month: number) => new Date(Date.UTC(2026, month, 5, 10)).toISOString()
const buyers = Array.from({ length: 20 }, (_, index) => `Buyer${String(index + 1).padStart(2, '0')}`)
const APRIL_BATCH = '2026-04-10T10:00:00.000Z'

/** A one-off onboarding invoice (a product without a rule of its own) for Gus's customers. */
function onboarding(name: string, at: string, amount: number, batch?: string): Invoice {
  const id = `in_${name}1`
  return { id, at, customer: `cus_${name}`, email: `${name.toLowerCase()}@example.com`, first: true, lines: [{ id: `il_${name}1`, product: 'prod_onboarding', amount }], ...(batch ? { batch } : {}) }
}

/**
 * Cleo (via Ann): Pro with a setup fee, then 12 monthly renewals. Dan (via Ann): Starter once. Eve
 * (via Max, 50 %): Pro with a setup fee, one renewal. Gus's customers buy onboarding: Hana 600.00
 * and Ivo 500.00 in January (Gold from Ivo's on), Jay 100.00 (Gold's rate; the third customer: a
 * bonus), nothing in February, Lea 100.00 in March (Gold gone), twenty buyers at 10.00 at once in April.
 */
function invoices(): Invoice[] {
  const cleo = { customer: 'cus_Cleo', email: 'cleo@example.com', subscription: 'sub_Cleo' }
  const eve = { customer: 'cus_Eve', email: 'eve@example.com', subscription: 'sub_Eve' }
  const list: Invoice[] = [{ id: 'in_Cleo1', at: monthOf(0), ...cleo, first: true, lines: [pro('Cleo1'), setupFee('Cleo1')] }]
  for (let n = 2; n <= 13; n += 1) list.push({ id: `in_Cleo${n}`, at: monthOf(n - 1), ...cleo, first: false, lines: [pro(`Cleo${n}`)] })
  list.push({ id: 'in_Dan1', at: monthOf(1), customer: 'cus_Dan', email: 'dan@example.com', first: true, lines: [{ id: 'il_Dan1', product: 'prod_starter', amount: 4900 }] })
  list.push({ id: 'in_Eve1', at: monthOf(0), ...eve, first: true, lines: [pro('Eve1'), setupFee('Eve1')] })
  list.push({ id: 'in_Eve2', at: monthOf(1), ...eve, first: false, lines: [pro('Eve2')] })
  list.push(onboarding('Hana', '2026-01-05T12:00:00.000Z', 60000), onboarding('Ivo', '2026-01-15T12:00:00.000Z', 50000), onboarding('Jay', '2026-01-20T12:00:00.000Z', 10000))
  list.push(onboarding('Lea', '2026-03-03T12:00:00.000Z', 10000))
  for (const buyer of buyers) list.push(onboarding(buyer, APRIL_BATCH, 1000, 'april'))
  return list.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
}

/** The invoices in time order, one step each but a batch's, whose invoices are one step. */
function steps(): Invoice[][] {
  const list: Invoice[][] = []
  for (const invoice of invoices()) {
    const last = list.at(-1)
    if (invoice.batch !== undefined && last?.[0]?.batch === invoice.batch) last.push(invoice)
    else list.push([invoice])
  }
  return list
}

const referrals = [
  { email: 'cleo@example.com', customer: 'cus_Cleo', code: 'ANN' },
  { email: 'dan@example.com', customer: 'cus_Dan', code: 'ANN' },
  { email: 'eve@example.com', customer: 'cus_Eve', code: 'MAX' },
  ...['Hana', 'Ivo', 'Jay', 'Lea', ...buyers].map((name) => ({ email: `${name.toLowerCase()}@example.com`, customer: `cus_${name}`, code: 'GUS' })),
]

async function priceListProgram(context: CaseContext) {
  const made = await context.program({ settings: PRICE_LIST_SETTINGS })
  await recordAllEvents(made.program)
  await made.program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
  await made.program.affiliates.create({ email: 'max@affiliates.example', referralCode: 'MAX', commission: { purchase: pct(50) } })
  await made.program.affiliates.create({ email: 'gus@affiliates.example', referralCode: 'GUS' })
  made.clock.set('2027-06-01T00:00:00Z')
  return made
}

/** The invoices as program calls: one conversion per line when the lines are of several products. */
async function throughCalls(program: AffiliateProgram): Promise<void> {
  for (const referral of referrals) await program.referrals.create({ email: referral.email, referralCode: referral.code })
  const pay = async (invoice: Invoice) => {
    const common = { type: 'purchase' as const, email: invoice.email, baseValueCurrency: 'USD', occurredAt: invoice.at, paymentProcessor: 'stripe' }
    const several = new Set(invoice.lines.map((line) => line.product)).size > 1
    for (const line of invoice.lines) {
      await program.conversions.create({
        ...common,
        baseValue: (line.amount / 100).toFixed(2),
        productId: line.product,
        reference: several ? `${invoice.id}:${line.id}` : invoice.id,
        ...(several ? { paymentId: invoice.id } : {}),
      })
    }
  }
  for (const step of steps()) await Promise.all(step.map(pay))
}

function invoiceEvent(invoice: Invoice) {
  const subtotal = invoice.lines.reduce((sum, line) => sum + line.amount, 0)
  return invoicePaid({
    at: invoice.at,
    id: invoice.id,
    customer: invoice.customer,
    email: invoice.email,
    subtotal,
    tax: 0,
    ...(invoice.subscription ? { subscription: invoice.subscription } : {}),
    billingReason: invoice.subscription === undefined ? 'manual' : invoice.first ? 'subscription_create' : 'subscription_cycle',
    paymentIntent: `pi_${invoice.id}`,
    lines: invoice.lines,
  })
}

async function throughStripe(program: AffiliateProgram, storage: StoragePort, clock: TestClock) {
  const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
  const deliver = async (event: unknown) => {
    const response = await deliverStripe(handler, event, clock)
    expect(response.status).toBe(200)
    return (await response.json()) as { status: string; detail: string }
  }
  for (const referral of referrals) {
    await deliver(checkoutCompleted({ at: '2026-01-01T09:00:00Z', customer: referral.customer, email: referral.email, referral: referral.code }))
  }
  for (const step of steps()) await Promise.all(step.map((invoice) => deliver(invoiceEvent(invoice))))
  return deliver
}

/** The ledger of the story, computed by hand. */
async function expectPriceListLedger(program: AffiliateProgram, storage: StoragePort): Promise<void> {
  const { conversions } = await ledgerOf(program)
  const line = (c: (typeof conversions)[number]) => `${c.reference} ${c.value} ${c.basis}`
  const cleo = conversions.filter((c) => c.customer === 'cleo@example.com').map(line)
  expect(cleo).toEqual([
    'in_Cleo1:il_Cleo1_pro 15.00 purchase',
    'in_Cleo1:il_Cleo1_setup 0.00 excluded',
    'in_Cleo10 20.00 recurring',
    'in_Cleo11 20.00 recurring',
    'in_Cleo12 20.00 recurring',
    'in_Cleo13 0.00 recurring_expired',
    'in_Cleo2 40.00 recurring',
    'in_Cleo3 40.00 recurring',
    'in_Cleo4 40.00 recurring',
    ...[5, 6, 7, 8, 9].map((n) => `in_Cleo${n} 20.00 recurring`),
  ])
  const others = conversions.filter((c) => c.customer !== 'cleo@example.com' && c.affiliate !== 'gus@affiliates.example').map(line)
  expect(others).toEqual(['in_Dan1 9.80 purchase', 'in_Eve1:il_Eve1_pro 50.00 purchase', 'in_Eve1:il_Eve1_setup 0.00 excluded', 'in_Eve2 50.00 recurring'])
  const gus = conversions.filter((c) => c.affiliate === 'gus@affiliates.example').map((c) => `${line(c)} ${c.at}`)
  expect(gus).toEqual([
    'bonus:gus@affiliates.example:Three customers:2026-01-01 50.00 bonus 2026-01-20T12:00:00.000Z',
    `bonus:gus@affiliates.example:Three customers:2026-04-01 50.00 bonus ${APRIL_BATCH}`,
    ...buyers.map((buyer) => `in_${buyer}1 3.00 purchase ${APRIL_BATCH}`),
    'in_Hana1 180.00 purchase 2026-01-05T12:00:00.000Z',
    'in_Ivo1 150.00 purchase 2026-01-15T12:00:00.000Z',
    'in_Jay1 40.00 purchase 2026-01-20T12:00:00.000Z',
    'in_Lea1 30.00 purchase 2026-03-03T12:00:00.000Z',
  ])
  // Ann: 15.00 + 3 x 40.00 + 8 x 20.00 + 9.80; Max: 2 x 50.00; Gus: 180.00 + 150.00 + 40.00 + 50.00 + 30.00 + 20 x 3.00 + 50.00.
  expect(await balancesOf(program, 'ann@affiliates.example')).toMatchObject({ total: '304.80', unpaid: '304.80' })
  expect(await balancesOf(program, 'max@affiliates.example')).toMatchObject({ total: '100.00', unpaid: '100.00' })
  expect(await balancesOf(program, 'gus@affiliates.example')).toMatchObject({ total: '560.00', unpaid: '560.00' })
  const sources = (await program.conversions.list({ limit: 100 })).items.map((c) => `${c.reference} ${c.ruleSource}`)
  expect(sources).toEqual(
    expect.arrayContaining(['in_Cleo1:il_Cleo1_pro product', 'in_Cleo1:il_Cleo1_setup product', 'in_Cleo2 project', 'in_Eve2 affiliate', 'in_Ivo1 project', 'in_Jay1 tier', 'in_Lea1 project']),
  )
  // February held Gold (January closed at 1,100.00), though nobody bought: March is when it went.
  const gusId = (await program.affiliates.get('gus@affiliates.example')).id
  const february = await program.conversions.preview({ type: 'purchase', affiliateId: gusId, baseValue: '100.00', productId: 'prod_onboarding', occurredAt: '2026-02-10T12:00:00Z' })
  expect(february).toMatchObject({ value: '40.00', ruleSource: 'tier' })
  expect((await program.affiliates.get(gusId)).tier).toBeNull()
  const changes = (await recordedEvents(storage, program)).filter((event) => event.type === 'affiliate.tier_changed')
  expect(changes.map((event) => event.body.tier)).toEqual([
    { from: null, to: 'Gold', period: 'month', changed_at: '2026-01-15T12:00:00.000Z' },
    { from: 'Gold', to: null, period: 'month', changed_at: '2026-03-03T12:00:00.000Z' },
  ])
}

export function commissionScenarioCases(context: CaseContext): void {
  describe('commission rules: the price-list scenario', () => {
    it('through program calls: figures to the cent', async () => {
      const { program, storage } = await priceListProgram(context)
      await throughCalls(program)
      await expectPriceListLedger(program, storage)
    })

    it('through signed Stripe events: the same figures and ledger; a redelivered two-line invoice creates nothing', async () => {
      const calls = await priceListProgram(context)
      await throughCalls(calls.program)
      const expected = await ledgerOf(calls.program)

      const events = await priceListProgram(context)
      const deliver = await throughStripe(events.program, events.storage, events.clock)
      await expectPriceListLedger(events.program, events.storage)
      expect(await ledgerOf(events.program)).toEqual(expected)
      const again = await deliver(invoiceEvent(invoices().find((invoice) => invoice.id === 'in_Cleo1')!))
      expect(again.detail).toContain('already recorded as')
      expect(await ledgerOf(events.program)).toEqual(expected)
      expect((await events.program.conversions.list({ limit: 100 })).items.find((c) => c.reference === 'in_Cleo1:il_Cleo1_pro')).toMatchObject({ productId: 'prod_pro', ruleSource: 'product' })
    })

    it("a full refund of a two-line invoice refunds each line's conversion", async () => {
      const { program, storage, clock } = await priceListProgram(context)
      const deliver = await throughStripe(program, storage, clock)
      const refund = legacyChargeRefunded({ at: '2027-01-20T00:00:00Z', id: 'ch_Eve1', customer: 'cus_Eve', paymentIntent: 'pi_in_Eve1', invoice: 'in_Eve1', amount: 15000, refundedSoFar: 15000 })
      expect(await deliver(refund)).toMatchObject({ status: 'applied' })
      const eve = (await program.conversions.list({ limit: 100 })).items.filter((c) => c.reference?.startsWith('in_Eve1')).map((c) => c.status)
      expect(eve).toEqual(['refunded', 'refunded'])
      expect(await balancesOf(program, 'max@affiliates.example')).toMatchObject({ total: '50.00' })
    })

    it('reads the product of old-API invoice lines (price.product)', () => {
      const event = legacyInvoicePaid({ at: '2026-01-05T10:00:00Z', id: 'in_Old', customer: 'cus_Old', email: 'old@example.com', subtotal: 15000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Old', charge: 'ch_Old' })
      const object = event.data.object as unknown as Record<string, unknown>
      object.lines = {
        object: 'list',
        has_more: false,
        data: [
          { id: 'il_a', object: 'line_item', amount: 10000, currency: 'usd', discount_amounts: [], tax_amounts: [], price: { id: 'price_a', object: 'price', product: 'prod_pro' } },
          { id: 'il_b', object: 'line_item', amount: 6000, currency: 'usd', discount_amounts: [{ amount: 1000, discount: 'di_1' }], tax_amounts: [], price: { id: 'price_b', object: 'price', product: 'prod_setup' } },
        ],
      }
      const [paid] = mapStripeEvent(event).actions
      expect(paid).toMatchObject({ kind: 'paid', productId: 'prod_pro', lines: [{ id: 'il_a', productId: 'prod_pro', amount: 10000n }, { id: 'il_b', productId: 'prod_setup', amount: 5000n }] })
    })
  })
}
