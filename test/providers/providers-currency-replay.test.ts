// Polar, Braintree, Chargebee and Recurly payments in a currency other than the program's: without a rate the payment
// waits (and its refund with it), the console's provider-events page lists both with what they
// wait for and a Replay button; once the rate exists, a replay from the page applies the payment,
// the refund follows, and a second replay applies nothing.
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAdminConsole } from '../../src/admin/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type TestClock } from '../../src/index.js'
import { braintreeHandler } from '../../src/providers/braintree/index.js'
import { chargebeeHandler } from '../../src/providers/chargebee/index.js'
import type { FetchHandler } from '../../src/providers/handler.js'
import { polarHandler } from '../../src/providers/polar/index.js'
import { recurlyHandler } from '../../src/providers/recurly/index.js'
import { providerEventReplay } from '../../src/providers/replay.js'
import { signInWithKey } from '../support/admin/helpers.js'
import { Agent } from '../support/portal/helpers.js'
import { transactionSettled } from '../support/providers/braintree-fixtures.js'
import { BRAINTREE_KEYS, deliverBraintree } from '../support/providers/braintree-scenario.js'
import { creditNoteEvent, paymentSucceeded, type InvoiceFixture as ChargebeeInvoice } from '../support/providers/chargebee-fixtures.js'
import { CHARGEBEE_OPTIONS, deliverChargebee } from '../support/providers/chargebee-scenario.js'
import { orderPaid, orderRefunded, type OrderInput } from '../support/providers/polar-fixtures.js'
import { deliverPolar, POLAR_SECRET } from '../support/providers/polar-scenario.js'
import { chargeInvoice, paymentRefunded, type InvoiceFixture as RecurlyInvoice } from '../support/providers/recurly-fixtures.js'
import { deliverRecurly, RECURLY_OPTIONS } from '../support/providers/recurly-scenario.js'
import { SCENARIO_SETTINGS } from '../support/providers/scenario.js'

interface ForeignPayment {
  name: string
  handler(program: AffiliateProgram): FetchHandler
  deliver(handler: FetchHandler, event: unknown, clock: TestClock): Promise<Response>
  /** The payment's reference, and its events: 100.00 EUR paid (no tax, referred by Ann), then half of it refunded. */
  reference: string
  paid: unknown
  halfRefund: unknown
}

const danOrder: OrderInput = { at: '2026-01-31T10:00:00Z', id: 'ord_dan_eur', customer: 'cus_dan', email: 'dan@example.com', subtotal: 10000, tax: 0, billingReason: 'purchase', product: 'prod_book', currency: 'eur', metadata: { referral: 'ANN' } }
const danSale = { at: '2026-01-31T10:00:00Z', id: 'txn_dan_eur', customer: 'cus_dan', email: 'dan@example.com', amount: '100.00', tax: '0.00', currency: 'EUR', customFields: { referral: 'ANN' } }

const danInvoice: ChargebeeInvoice = { id: 'inv_dan_eur', at: '2026-01-31T10:00:00Z', customer: { id: 'cb_dan', email: 'dan@example.com', referral: 'ANN' }, currency: 'EUR', lines: [{ itemPrice: 'book-EUR', amount: 10000 }], tax: 0 }
const danRecurly: RecurlyInvoice = { id: 'inv_dan_eur_rc', number: 8801, at: '2026-01-31T10:00:00Z', account: { id: 'acc_dan', code: 'dan', email: 'dan@example.com', referral: 'ANN' }, origin: 'purchase', currency: 'EUR', lines: [{ itemCode: 'book', amount: 10000 }] }

const PAYMENTS: ForeignPayment[] = [
  {
    name: 'polar',
    handler: (program) => polarHandler({ program, webhookSecret: POLAR_SECRET }),
    deliver: deliverPolar,
    reference: 'ord_dan_eur',
    paid: orderPaid(danOrder),
    halfRefund: orderRefunded({ ...danOrder, refunded: { amount: 5000, tax: 0, at: '2026-01-31T11:00:00Z' } }),
  },
  {
    name: 'braintree',
    handler: (program) => braintreeHandler({ program, ...BRAINTREE_KEYS }),
    deliver: deliverBraintree,
    reference: 'txn_dan_eur',
    paid: transactionSettled(danSale),
    halfRefund: transactionSettled({ ...danSale, at: '2026-01-31T11:00:00Z', id: 'txn_dan_eur_r1', type: 'credit', amount: '50.00', refunds: 'txn_dan_eur', customFields: {} }),
  },
  {
    name: 'chargebee',
    handler: (program) => chargebeeHandler({ program, ...CHARGEBEE_OPTIONS }),
    deliver: (handler, event) => deliverChargebee(handler, event),
    reference: 'inv_dan_eur',
    paid: paymentSucceeded('ev_dan_eur', danInvoice),
    halfRefund: creditNoteEvent('ev_dan_eur_refund', 'payment_refunded', '2026-01-31T11:00:00Z', danInvoice, { id: 'CN-DAN', refunded: 5000 }),
  },
  {
    name: 'recurly',
    handler: (program) => recurlyHandler({ program, ...RECURLY_OPTIONS }),
    deliver: (handler, event, clock) => deliverRecurly(handler, event, clock),
    reference: 'inv_dan_eur_rc',
    paid: chargeInvoice('paid', danRecurly),
    halfRefund: paymentRefunded(danRecurly, { id: 'tx_dan_eur_refund', number: 8802, at: '2026-01-31T11:00:00Z', refunded: 5000 }),
  },
]

for (const payment of PAYMENTS) {
  describe(`${payment.name}: a payment in a foreign currency`, () => {
    it('waits for its rate, listed on the console with a Replay button; replayed once the rate exists it applies with its refund, once', async () => {
      const storage = memoryStorage()
      const clock = testClock('2026-02-01T00:00:00Z')
      const rates = new Map<string, string>()
      const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS, exchangeRates: (from, to) => rates.get(`${from}->${to}`) ?? null })
      await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
      const admin = createAdminConsole(program, { sessions: storage, auditLog: storage, providerEvents: providerEventReplay({ program }) })
      const { key } = await program.keys.create({ name: 'Owner', scopes: ['*'] })
      const agent = new Agent(admin)
      expect((await signInWithKey(agent, key)).status).toBeLessThan(400)

      const handler = payment.handler(program)
      expect(await (await payment.deliver(handler, payment.paid, clock)).json()).toMatchObject({ status: 'waiting' })
      expect(await (await payment.deliver(handler, payment.halfRefund, clock)).json()).toMatchObject({ status: 'waiting' })
      const waiting = (await program.providerEvents.list({ status: 'waiting' })).items.find((event) => event.conversionId === null && event.waitingFor?.startsWith('rate:'))
      expect(waiting).toMatchObject({ provider: payment.name, waitingFor: `rate:EUR->USD:${payment.reference}` })

      const row = (page: string, id: number) => new RegExp(`<tr data-provider-event="${id}">.*?</tr>`, 's').exec(page)?.[0] ?? ''
      const page = await (await agent.get('/admin/provider-events')).text()
      expect(row(page, waiting!.id)).toContain(`<td>${payment.name}</td>`)
      expect(row(page, waiting!.id)).toContain(`for rate:EUR-&gt;USD:${payment.reference}`)
      expect(row(page, waiting!.id)).toContain(`aria-label="Replay event ${waiting!.id}"`)

      rates.set('EUR->USD', '1.1')
      const csrf = await agent.csrfOf('/admin/provider-events')
      const replayed = await agent.post(`/admin/provider-events/${waiting!.id}/replay`, { csrf })
      expect(await replayed.text()).toContain(`data-replay-status="applied">event ${waiting!.id} (${payment.name} `)
      // 100.00 EUR at 1.1 is 110.00 USD; 30% is 33.00, half of it refunded: 16.50.
      const conversions = async () => (await program.conversions.list()).items.map((c) => [c.reference, c.baseValue, c.baseValueCurrency, c.refundedBaseValue, c.value, c.currency])
      expect(await conversions()).toEqual([[payment.reference, '100.00', 'EUR', '50.00', '16.50', 'USD']])
      expect((await program.providerEvents.list({ status: 'waiting' })).total).toBe(0)
      const again = await agent.post(`/admin/provider-events/${waiting!.id}/replay`, { csrf })
      expect(await again.text()).toContain('was applied already; nothing was applied again')
      expect(await conversions()).toEqual([[payment.reference, '100.00', 'EUR', '50.00', '16.50', 'USD']])
    })
  })
}
