// The price-list scenario of docs/commissions.md on every adapter: Starter at 20 %, Pro at 15 %, a
// setup fee excluded, renewals staged 3 x 40 % then 20 % and capped at 12 payments, an affiliate
// at 50 %. Once through program calls, once through signed Stripe events (the first invoice with a
// subscription line and a setup-fee line): the same ledger, to the cent.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram, StoragePort, TestClock } from '../../src/index.js'
import type { ProjectSettingsInput } from '../../src/core/schemas.js'
import { mapStripeEvent } from '../../src/providers/stripe/map.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { balancesOf, ledgerOf } from '../providers/ledger.js'
import { checkoutCompleted, invoicePaid, legacyChargeRefunded, legacyInvoicePaid, type LineInput } from '../providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../providers/stripe-scenario.js'
import type { CaseContext } from './harness.js'

const pct = (rate: number) => ({ type: 'percentage' as const, rate })

export const PRICE_LIST_SETTINGS: ProjectSettingsInput = {
  commission: {
    purchase: pct(30),
    recurring: { maxPayments: 12, stages: [{ payments: 3, rate: 40 }, { rate: 20 }] },
    products: { prod_starter: { purchase: pct(20) }, prod_pro: { purchase: pct(15) }, prod_setup: { excluded: true } },
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
}

const pro = (id: string): LineInput => ({ id: `il_${id}_pro`, product: 'prod_pro', amount: 10000 })
const setupFee = (id: string): LineInput => ({ id: `il_${id}_setup`, product: 'prod_setup', amount: 5000 })
const monthOf = (month: number) => new Date(Date.UTC(2026, month, 5, 10)).toISOString()

/** Cleo (via Ann): Pro with a setup fee, then 12 monthly renewals. Dan (via Ann): Starter once. Eve (via Max, 50 %): Pro with a setup fee, one renewal. */
function invoices(): Invoice[] {
  const cleo = { customer: 'cus_Cleo', email: 'cleo@example.com', subscription: 'sub_Cleo' }
  const eve = { customer: 'cus_Eve', email: 'eve@example.com', subscription: 'sub_Eve' }
  const list: Invoice[] = [{ id: 'in_Cleo1', at: monthOf(0), ...cleo, first: true, lines: [pro('Cleo1'), setupFee('Cleo1')] }]
  for (let n = 2; n <= 13; n += 1) list.push({ id: `in_Cleo${n}`, at: monthOf(n - 1), ...cleo, first: false, lines: [pro(`Cleo${n}`)] })
  list.push({ id: 'in_Dan1', at: monthOf(1), customer: 'cus_Dan', email: 'dan@example.com', first: true, lines: [{ id: 'il_Dan1', product: 'prod_starter', amount: 4900 }] })
  list.push({ id: 'in_Eve1', at: monthOf(0), ...eve, first: true, lines: [pro('Eve1'), setupFee('Eve1')] })
  list.push({ id: 'in_Eve2', at: monthOf(1), ...eve, first: false, lines: [pro('Eve2')] })
  return list.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
}

const referrals = [
  { email: 'cleo@example.com', customer: 'cus_Cleo', code: 'ANN' },
  { email: 'dan@example.com', customer: 'cus_Dan', code: 'ANN' },
  { email: 'eve@example.com', customer: 'cus_Eve', code: 'MAX' },
]

async function priceListProgram(context: CaseContext) {
  const made = await context.program({ settings: PRICE_LIST_SETTINGS })
  await made.program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
  await made.program.affiliates.create({ email: 'max@affiliates.example', referralCode: 'MAX', commission: { purchase: pct(50) } })
  made.clock.set('2027-06-01T00:00:00Z')
  return made
}

/** The invoices as program calls: one conversion per line when the lines are of several products. */
async function throughCalls(program: AffiliateProgram): Promise<void> {
  for (const referral of referrals) await program.referrals.create({ email: referral.email, referralCode: referral.code })
  for (const invoice of invoices()) {
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
  for (const invoice of invoices()) await deliver(invoiceEvent(invoice))
  return deliver
}

export function commissionScenarioCases(context: CaseContext): void {
  describe('commission rules: the price-list scenario', () => {
    it('through program calls: figures to the cent', async () => {
      const { program } = await priceListProgram(context)
      await throughCalls(program)
      const { conversions } = await ledgerOf(program)
      const cleo = conversions.filter((c) => c.customer === 'cleo@example.com').map((c) => `${c.reference} ${c.value} ${c.basis}`)
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
      const others = conversions.filter((c) => c.customer !== 'cleo@example.com').map((c) => `${c.reference} ${c.value} ${c.basis}`)
      expect(others).toEqual(['in_Dan1 9.80 purchase', 'in_Eve1:il_Eve1_pro 50.00 purchase', 'in_Eve1:il_Eve1_setup 0.00 excluded', 'in_Eve2 50.00 recurring'])
      // Ann: 15.00 + 3 x 40.00 + 8 x 20.00 + 9.80; Max: 2 x 50.00.
      expect(await balancesOf(program, 'ann@affiliates.example')).toMatchObject({ total: '304.80', unpaid: '304.80' })
      expect(await balancesOf(program, 'max@affiliates.example')).toMatchObject({ total: '100.00', unpaid: '100.00' })
      const sources = (await program.conversions.list({ limit: 100 })).items.map((c) => `${c.reference} ${c.ruleSource}`).sort()
      expect(sources).toContain('in_Cleo1:il_Cleo1_pro product')
      expect(sources).toContain('in_Cleo1:il_Cleo1_setup product')
      expect(sources).toContain('in_Cleo2 project')
      expect(sources).toContain('in_Eve2 affiliate')
    })

    it('through signed Stripe events: the same ledger; a redelivered two-line invoice creates nothing', async () => {
      const calls = await priceListProgram(context)
      await throughCalls(calls.program)
      const expected = await ledgerOf(calls.program)

      const events = await priceListProgram(context)
      const deliver = await throughStripe(events.program, events.storage, events.clock)
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
