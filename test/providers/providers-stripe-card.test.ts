// Stripe's card fingerprint reaches the fraud rules (docs/fraud.md "Signals"): an invoice.paid
// whose charge is expanded carries payment_method_details.card.fingerprint; a customer paying
// with the card the affiliate paid its own purchase with is held as a self-referral, another card
// is not, and an invoice without an expanded charge earns as before.
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { invoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe } from '../support/providers/stripe-scenario.js'

/** An invoice.paid of `email`, paid by an expanded charge of the card `fingerprint` (none: the charge named by id, as Stripe sends it). */
function paidWithCard(id: string, email: string, fingerprint: string | null) {
  const event = invoicePaid({ at: '2026-01-31T12:00:00Z', id, customer: `cus_${id}`, email, subtotal: 10_000, tax: 0, billingReason: 'manual', paymentIntent: `pi_${id}` })
  const charge = fingerprint === null ? `ch_${id}` : { id: `ch_${id}`, object: 'charge', payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242', fingerprint } } }
  return { ...event, data: { object: { ...event.data.object, charge } } }
}

describe('stripe: card fingerprints and the self-referral rule', () => {
  it("holds a customer's invoice paid with the affiliate's own card; another card, or no card given, earns", async () => {
    const clock = testClock('2026-02-01T00:00:00Z')
    const storage = memoryStorage()
    const program = await createAffiliateProgram({ storage, clock })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    for (const email of ['ann@example.com', 'carl@example.com', 'dora@example.com', 'eve@example.com']) {
      await program.referrals.create({ email, referralCode: email === 'ann@example.com' ? 'BOB' : 'ANN' })
    }
    const handler = stripeHandler({ program, storage, webhookSecret: 'whsec_card' })
    const deliver = async (event: unknown) => expect((await deliverStripe(handler, event, clock, 'whsec_card')).status).toBe(200)
    await deliver(paidWithCard('in_ann', 'ann@example.com', 'fpANN')) // Ann buys for herself, through Bob
    await deliver(paidWithCard('in_carl', 'carl@example.com', 'fpANN'))
    await deliver(paidWithCard('in_dora', 'dora@example.com', 'fpDORA'))
    await deliver(paidWithCard('in_eve', 'eve@example.com', null))
    const byReference = new Map((await program.conversions.list()).items.map((item) => [item.reference, item]))
    expect(byReference.get('in_carl')).toMatchObject({ status: 'review', reviewReason: "self-referral: the card paid for the affiliate's own purchase" })
    expect(byReference.get('in_dora')).toMatchObject({ status: 'active', reviewReason: null, value: '30.00' })
    expect(byReference.get('in_eve')).toMatchObject({ status: 'active', reviewReason: null })
  })
})
