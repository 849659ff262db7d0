// Lead and trial rewards on every adapter (docs/commissions.md "Leads and trials"): a signup earns
// once per customer, server-side or from a browser with a signed referral, bounded per affiliate
// per day; a trial earns through Stripe's events, once, is clawed back when it ends unpaid (also
// after it was paid out) and stays when the trial converts, whose first paid invoice is the
// customer's first purchase. The ledger is checked to the cent against figures worked by hand.
import { describe, expect, it } from 'vitest'
import type { AffiliateProgram, StoragePort, TestClock } from '../../src/index.js'
import { referralSignature } from '../../src/core/model/signed-referral.js'
import { shortVisitor, visitorHash } from '../../src/core/model/visitor-hash.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { balancesOf } from '../support/providers/ledger.js'
import { checkoutCompleted, invoicePaid, subscriptionEvent } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import type { CaseContext } from './harness.js'
import { expectError } from './helpers.js'

const ANN = 'ann@example.com'

const SETTINGS = {
  currency: 'USD',
  holdPeriodDays: 7,
  commission: {
    purchase: { type: 'percentage' as const, rate: 30 },
    signup: { amount: '2.50' },
    trial: { amount: '5.00', clawbackUnpaid: true },
  },
  fraud: { signupsPerAffiliatePerDay: { max: 2, action: 'reject' as const } },
}

/** The signed referral (the ak_ref value) a browser's click on `code` got today. */
async function clickOf(storage: StoragePort, program: AffiliateProgram, code: string) {
  const salt = await storage.tracking.visitorSalt(program.projectId, 'salt-of-the-first-use')
  const day = program.clock.now().toISOString().slice(0, 10)
  const hash = visitorHash(salt, day, '203.0.113.7', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0')
  const referral = { code, expires: Math.floor(program.clock.now().getTime() / 1000) + 86_400, visitor: shortVisitor(hash) }
  return `${code}.${referral.expires}.${referral.visitor}.${referralSignature(salt, referral)}`
}

/** A Stripe customer who starts a 14-day trial through Ann's link: the checkout, the trialing subscription, its 0.00 first invoice. */
function trialStart(name: string, at: string) {
  const customer = { customer: `cus_${name}`, email: `${name.toLowerCase()}@example.com` }
  const trialEnd = new Date(new Date(at).getTime() + 14 * 86_400_000).toISOString()
  return {
    checkout: checkoutCompleted({ at, ...customer, referral: 'ANN', subscription: `sub_${name}` }),
    trialing: subscriptionEvent('customer.subscription.created', { at, id: `sub_${name}`, customer: customer.customer, status: 'trialing', trialStart: at, trialEnd }),
    freeInvoice: invoicePaid({ at, id: `in_${name}0`, ...customer, subtotal: 0, tax: 0, subscription: `sub_${name}`, billingReason: 'subscription_create', paymentIntent: `pi_${name}0` }),
  }
}

async function conversionsOf(program: AffiliateProgram) {
  const items = (await program.conversions.list({ limit: 100 })).items
  return Object.fromEntries(items.map((c) => [c.reference ?? `#${c.id}`, `${c.type} ${c.basis} ${c.status} ${c.value}${c.paid ? ' paid' : ''}`]))
}

export function leadRewardCases(context: CaseContext): void {
  describe('lead and trial rewards', () => {
    it('signups earn once per customer, server-side or from a browser with a signed referral, two a day per affiliate; trials earn, are clawed back unpaid, stay when paid', async () => {
      const { program, clock, storage } = await context.program({ settings: SETTINGS })
      clock.set('2026-03-02T10:00:00Z')
      await program.affiliates.create({ email: ANN, referralCode: 'ANN' })

      // A server-side signup (the host's secret key): 2.50, held for 7 days like a sale.
      const sam = await program.conversions.create({ type: 'signup', email: 'sam@example.com', referralCode: 'ANN', reference: 'lead-sam' })
      expect(sam.conversion).toMatchObject({ type: 'signup', basis: 'signup', value: '2.50', status: 'pending' })
      // The same request again is a replay; another signup of the same customer is refused and changes nothing.
      expect((await program.conversions.create({ type: 'signup', email: 'sam@example.com', referralCode: 'ANN', reference: 'lead-sam' })).duplicate).toBe(true)
      await expectError(program.conversions.create({ type: 'signup', email: 'sam@example.com', referralCode: 'ANN', reference: 'lead-sam-again' }), 'conflict', 'email')

      // A browser signup with the signed referral of a click earns the same reward, in the same transaction as its customer.
      expect(await program.tracking.browserSignup({ email: 'bea@example.com', referralCode: 'ANN', click: await clickOf(storage, program, 'ANN') })).toBe('created')
      // A browser signup of a known customer changes nothing and earns nothing.
      expect(await program.tracking.browserSignup({ email: 'sam@example.com', referralCode: 'ANN', click: await clickOf(storage, program, 'ANN') })).toBe('unchanged')

      // Ann's third signup of the day is past signupsPerAffiliatePerDay (2): recorded rejected, earning nothing.
      const cal = await program.conversions.create({ type: 'signup', email: 'cal@example.com', referralCode: 'ANN', reference: 'lead-cal' })
      expect(cal.conversion).toMatchObject({ status: 'rejected', reviewReason: 'signups per affiliate: more than 2 for the affiliate in a day' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '5.00', paid: '0.00', unpaid: '5.00', credit: '0.00' })

      // The next day counts afresh.
      clock.set('2026-03-03T09:00:00Z')
      expect((await program.conversions.create({ type: 'signup', email: 'dee@example.com', referralCode: 'ANN', reference: 'lead-dee' })).conversion.status).toBe('pending')

      // Trials through Stripe: Tom, Una, and Vic, whose subscription arrives before his checkout (it waits for his referral).
      const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
      const deliver = async (event: unknown) => {
        const response = await deliverStripe(handler, event, clock)
        expect(response.status).toBe(200)
        return (await response.json()) as { status: string; detail: string }
      }
      clock.set('2026-03-03T10:00:00Z')
      const tom = trialStart('Tom', '2026-03-03T10:00:00Z')
      await deliver(tom.checkout)
      expect(await deliver(tom.trialing)).toMatchObject({ status: 'applied' })
      await deliver(tom.freeInvoice)
      // The same event again, and twice at once: one reward.
      await deliver(tom.trialing)
      const twice = await Promise.all([deliverStripe(handler, tom.trialing, clock), deliverStripe(handler, tom.trialing, clock)])
      expect(twice.map((answer) => answer.status)).toEqual([200, 200])
      // Another trial of the same customer earns nothing more.
      const again = subscriptionEvent('customer.subscription.created', { at: '2026-03-03T10:01:00Z', id: 'sub_Tom2', customer: 'cus_Tom', status: 'trialing', trialStart: '2026-03-03T10:01:00Z', trialEnd: '2026-03-17T10:01:00Z' })
      expect(await deliver(again)).toMatchObject({ status: 'ignored', detail: expect.stringContaining('once per customer') })

      const una = trialStart('Una', '2026-03-03T10:05:00Z')
      for (const event of [una.checkout, una.trialing, una.freeInvoice]) await deliver(event)
      const vic = trialStart('Vic', '2026-03-03T10:10:00Z')
      expect(await deliver(vic.trialing)).toMatchObject({ status: 'waiting' })
      await deliver(vic.checkout)
      await deliver(vic.freeInvoice)
      // 3 signups x 2.50 + 3 trials x 5.00, all held.
      expect(await balancesOf(program, ANN)).toEqual({ total: '22.50', paid: '0.00', unpaid: '22.50', credit: '0.00' })

      // Una cancels during her trial: her reward is taken back before it was paid.
      clock.set('2026-03-10T09:00:00Z')
      const unaEnds = subscriptionEvent('customer.subscription.deleted', { at: '2026-03-10T09:00:00Z', id: 'sub_Una', customer: 'cus_Una', status: 'canceled', trialStart: '2026-03-03T10:05:00Z', trialEnd: '2026-03-17T10:05:00Z', endedAt: '2026-03-10T09:00:00Z' })
      expect(await deliver(unaEnds)).toMatchObject({ status: 'applied' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.50', paid: '0.00', unpaid: '17.50', credit: '0.00' })

      // Past the hold period, Ann is paid all she earned: 3 x 2.50 + 2 x 5.00.
      clock.set('2026-03-11T12:00:00Z')
      const ann = await program.affiliates.get(ANN)
      expect(ann.earnings).toMatchObject({ eligible: '17.50', held: '0.00' })
      await program.payouts.create({ affiliateId: ann.id, amount: '17.50' })
      expect(await balancesOf(program, ANN)).toEqual({ total: '17.50', paid: '17.50', unpaid: '0.00', credit: '0.00' })

      // The trials end. Tom's converts: his first paid invoice (20.00) is his first purchase, 30 %: 6.00; his trial reward stays.
      clock.set('2026-03-17T10:30:00Z')
      const tomPays = invoicePaid({ at: '2026-03-17T10:00:00Z', id: 'in_Tom1', customer: 'cus_Tom', email: 'tom@example.com', subtotal: 2000, tax: 0, subscription: 'sub_Tom', billingReason: 'subscription_cycle', paymentIntent: 'pi_Tom1' })
      expect(await deliver(tomPays)).toMatchObject({ status: 'applied', detail: expect.stringContaining('(purchase, commission 6.00 USD)') })
      // Vic's ends unpaid (Stripe updates it to canceled, then deletes it): his paid reward is clawed back once, Ann owes it.
      const vicCanceled = { at: '2026-03-17T10:10:00Z', id: 'sub_Vic', customer: 'cus_Vic', status: 'canceled' as const, trialStart: '2026-03-03T10:10:00Z', trialEnd: '2026-03-17T10:10:00Z', endedAt: '2026-03-17T10:10:00Z' }
      const vicEnds = [subscriptionEvent('customer.subscription.updated', vicCanceled), subscriptionEvent('customer.subscription.deleted', vicCanceled)]
      const ends = await Promise.all(vicEnds.map((event) => deliverStripe(handler, event, clock)))
      expect(ends.map((answer) => answer.status)).toEqual([200, 200])
      const endStatuses = await Promise.all(ends.map(async (answer) => ((await answer.json()) as { status: string }).status))
      expect(endStatuses.sort()).toEqual(['applied', 'ignored'])
      // total 3 x 2.50 + 5.00 (Tom's trial) + 6.00 (Tom's purchase) = 18.50; paid 12.50 still paid + 5.00 back as credit = 17.50.
      expect(await balancesOf(program, ANN)).toEqual({ total: '18.50', paid: '17.50', unpaid: '1.00', credit: '5.00' })

      // Months later Tom cancels: he paid, so his trial reward stays.
      clock.set('2026-06-01T00:00:00Z')
      const tomEnds = subscriptionEvent('customer.subscription.deleted', { at: '2026-06-01T00:00:00Z', id: 'sub_Tom', customer: 'cus_Tom', status: 'canceled', endedAt: '2026-06-01T00:00:00Z' })
      expect(await deliver(tomEnds)).toMatchObject({ status: 'ignored', detail: expect.stringContaining('the trial converted') })
      expect(await balancesOf(program, ANN)).toEqual({ total: '18.50', paid: '17.50', unpaid: '1.00', credit: '5.00' })

      const bea = await program.referrals.get('bea@example.com')
      expect(await conversionsOf(program)).toEqual({
        'lead-sam': 'signup signup active 2.50 paid',
        [`signup:${bea.id}`]: 'signup signup active 2.50 paid',
        'lead-cal': 'signup signup rejected 2.50',
        'lead-dee': 'signup signup active 2.50 paid',
        'trial:sub_Tom': 'trial trial active 5.00 paid',
        'trial:sub_Una': 'trial trial refunded 5.00',
        'trial:sub_Vic': 'trial trial refunded 5.00 paid',
        in_Tom1: 'purchase purchase active 6.00',
      })
    }, 60_000)

    it('trials earn nothing without a trial rule, and keep their reward when clawbackUnpaid is off', async () => {
      const run = async (clock: TestClock, program: AffiliateProgram, storage: StoragePort) => {
        clock.set('2026-03-03T10:00:00Z')
        await program.affiliates.create({ email: ANN, referralCode: 'ANN' })
        const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
        const zoe = trialStart('Zoe', '2026-03-03T10:00:00Z')
        const answers = []
        for (const event of [zoe.checkout, zoe.trialing, zoe.freeInvoice]) answers.push(await (await deliverStripe(handler, event, clock)).json())
        clock.set('2026-03-17T10:00:00Z')
        const ended = subscriptionEvent('customer.subscription.deleted', { at: '2026-03-17T10:00:00Z', id: 'sub_Zoe', customer: 'cus_Zoe', status: 'canceled', endedAt: '2026-03-17T10:00:00Z' })
        answers.push(await (await deliverStripe(handler, ended, clock)).json())
        return answers.map((answer) => (answer as { status: string }).status)
      }
      const none = await context.program({ settings: { commission: { purchase: { type: 'percentage', rate: 30 } } } })
      expect(await run(none.clock, none.program, none.storage)).toEqual(['applied', 'ignored', 'ignored', 'ignored'])
      expect(await balancesOf(none.program, ANN)).toEqual({ total: '0.00', paid: '0.00', unpaid: '0.00', credit: '0.00' })

      const kept = await context.program({ settings: { commission: { purchase: { type: 'percentage', rate: 30 }, trial: { amount: '4.00' } } } })
      expect(await run(kept.clock, kept.program, kept.storage)).toEqual(['applied', 'applied', 'ignored', 'ignored'])
      expect(await balancesOf(kept.program, ANN)).toEqual({ total: '4.00', paid: '0.00', unpaid: '4.00', credit: '0.00' })
    })

    it('refuses bad trial and per-affiliate settings, naming the key, and changes nothing', async () => {
      const { program } = await context.program({ settings: SETTINGS })
      const id = program.projectId
      await expectError(program.projects.updateSettings(id, { commission: { purchase: { type: 'percentage', rate: 30 }, trial: { amount: '5.001' } } }), 'invalid_request', 'commission.trial.amount')
      await expectError(program.projects.updateSettings(id, { commission: { purchase: { type: 'percentage', rate: 30 }, trial: { amount: '5.00', clawbackUnpaid: 'yes' as never } } }), 'invalid_request')
      await expectError(program.projects.updateSettings(id, { fraud: { signupsPerAffiliatePerDay: { max: -1, action: 'review' } } }), 'invalid_request', 'fraud.signupsPerAffiliatePerDay.max')
      expect((await program.settings()).commission.trial).toEqual({ amount: '5.00', clawbackUnpaid: true })
    })
  })
}
