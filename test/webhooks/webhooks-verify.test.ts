// verifyWebhook, as a receiver uses it: the dispatcher delivers over real HTTP to a local receiver,
// in both schemes and through a secret rotation, every event type (its test delivery) and the
// events real changes cause; each request is handed to verifyWebhook as the receiver got it,
// which answers the payload typed by `event`. Forged, stale and unsigned requests are refused.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { EVENT_TYPES, type AffiliateProgram, type WebhookDispatcher } from '../../src/index.js'
import { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventOf } from '../../src/webhooks/index.js'
import { startReceiver, webhookProgram, type ReceivedRequest } from '../support/webhooks-helpers.js'

const STANDARD_SECRET = `whsec_${Buffer.from('a-32-byte-long-secret-for-tests!').toString('base64')}`

/** The request as a Fetch handler receives it. */
const asRequest = (received: ReceivedRequest, body: string = received.body) =>
  new Request(`http://127.0.0.1${received.url}`, { method: 'POST', headers: received.headers as Record<string, string>, body })

async function receiving(mode: 'service' | 'standard', secret: string, run: (context: { program: AffiliateProgram; dispatcher: WebhookDispatcher; endpointId: number }) => Promise<void>) {
  const hook = await startReceiver()
  try {
    const { program, dispatcher } = await webhookProgram()
    const endpoint = await program.webhooks.create({ url: hook.url, events: [...EVENT_TYPES], secret, mode })
    await run({ program, dispatcher, endpointId: endpoint.id })
    return hook.requests
  } finally {
    await hook.close()
  }
}

/** Every event of a program's life: signup, purchase, payout, refund, application decisions. */
async function causeEvents(program: AffiliateProgram, dispatcher: WebhookDispatcher) {
  const affiliate = await program.affiliates.create({ email: 'ann@example.com', paypalEmail: 'pay@example.com' })
  await program.referrals.create({ email: 'bob@example.com', affiliateId: affiliate.id })
  const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 49, reference: 'ch_1', email: 'bob@example.com' })
  await program.payouts.create({ affiliateId: affiliate.id, amount: 10, method: 'paypal' })
  await program.conversions.update(conversion.id, { status: 'refunded', reason: 'requested_by_customer' })
  await dispatcher.dispatch()
}

describe('verifyWebhook', () => {
  for (const mode of ['service', 'standard'] as const) {
    const secret = mode === 'standard' ? STANDARD_SECRET : 'whsec_plain_service_secret'

    it(`${mode} scheme: every event type's test delivery verifies and parses to its payload`, async () => {
      const requests = await receiving(mode, secret, async ({ program, dispatcher, endpointId }) => {
        for (const type of EVENT_TYPES) expect((await dispatcher.sendTest(program.projectId, endpointId, type)).success).toBe(true)
      })
      expect(requests).toHaveLength(EVENT_TYPES.length)
      const events = await Promise.all(requests.map((received) => verifyWebhook(asRequest(received), secret)))
      expect(events.map((event) => event.event)).toEqual([...EVENT_TYPES])
      expect(events).toEqual(requests.map((received) => JSON.parse(received.body)))
    })

    it(`${mode} scheme: the events real changes cause verify, typed by their event (as headers and raw body too)`, async () => {
      const requests = await receiving(mode, secret, ({ program, dispatcher }) => causeEvents(program, dispatcher))
      expect(requests.map((received) => received.headers['x-service-event'])).toEqual(['referral_signed_up', 'referral_converted', 'referral_updated', 'payout.created', 'referral_canceled', 'referral_updated'])
      for (const received of requests) {
        const event = await verifyWebhook({ headers: received.headers, body: Buffer.from(received.body) }, [secret])
        expect(event).toEqual(JSON.parse(received.body))
        if (event.event === 'referral_converted') expect([event.conversion.amount, event.conversion.commission_amount, event.conversion.order_id]).toEqual([49, 14.7, 'ch_1'])
        if (event.event === 'payout.created') expect([event.payout.amount, event.affiliate.payout_preferences?.paypal_email]).toEqual(['10.00', 'pay@example.com'])
        if (event.event === 'referral_canceled') expect(event.conversion.reason).toBe('requested_by_customer')
      }
    })

    it(`${mode} scheme: a changed body, another secret or no signature is refused`, async () => {
      const [received] = await receiving(mode, secret, async ({ program, dispatcher, endpointId }) => {
        await dispatcher.sendTest(program.projectId, endpointId, 'payout.created')
      })
      await expect(verifyWebhook(asRequest(received!, received!.body.replace('"paypal"', '"wise"')), secret)).rejects.toThrow(new WebhookVerificationError('no signature matches'))
      await expect(verifyWebhook(asRequest(received!), 'another-secret')).rejects.toThrow('no signature matches')
      await expect(verifyWebhook(asRequest(received!), [])).rejects.toThrow('no secret to verify with')
      const unsigned = { headers: { 'content-type': 'application/json' }, body: received!.body }
      await expect(verifyWebhook(unsigned, secret)).rejects.toThrow('the request is not signed')
    })

    it(`${mode} scheme: during a rotation a receiver holding either secret verifies; after it, the old one no longer does`, async () => {
      const rotating = mode === 'standard' ? `whsec_${Buffer.from('the-next-32-byte-secret-of-tests').toString('base64')}` : 'whsec_next_service_secret'
      const hook = await startReceiver()
      try {
        const { program, dispatcher, clock } = await webhookProgram()
        const endpoint = await program.webhooks.create({ url: hook.url, events: ['payout.requested'], secret, mode })
        await program.webhooks.rotateSecret(endpoint.id, rotating, 3600)
        await dispatcher.sendTest(program.projectId, endpoint.id, 'payout.requested')
        const rotatedAt = clock.now()
        clock.advance({ hours: 2 })
        await dispatcher.sendTest(program.projectId, endpoint.id, 'payout.requested')
        const [during, after] = hook.requests.map((received) => asRequest(received))
        for (const held of [secret, rotating, [secret, rotating]]) expect((await verifyWebhook(during!.clone(), held, { now: rotatedAt })).event).toBe('payout.requested')
        expect((await verifyWebhook(after!.clone(), [secret, rotating], { now: clock.now() })).event).toBe('payout.requested')
        await expect(verifyWebhook(after!.clone(), secret, { now: clock.now() })).rejects.toThrow('no signature matches')
      } finally {
        await hook.close()
      }
    })
  }

  it('standard scheme: a timestamp beyond the tolerance is refused (a replay), within it accepted', async () => {
    const [received] = await receiving('standard', STANDARD_SECRET, async ({ program, dispatcher, endpointId }) => {
      await dispatcher.sendTest(program.projectId, endpointId, 'referral_converted')
    })
    const sentAt = Number(received!.headers['webhook-timestamp']) * 1000
    await expect(verifyWebhook(asRequest(received!), STANDARD_SECRET, { now: new Date(sentAt + 301_000) })).rejects.toThrow('no signature matches')
    expect((await verifyWebhook(asRequest(received!), STANDARD_SECRET, { now: new Date(sentAt + 299_000) })).event).toBe('referral_converted')
  })

  it('a signed body that is not an affiliate-kit event is refused', async () => {
    const { signPayload } = await import('../../src/webhooks/index.js')
    const body = JSON.stringify({ event: 'order.created', id: 1 })
    await expect(verifyWebhook({ headers: { 'X-Service-Signature': signPayload('s', body) }, body }, 's')).rejects.toThrow('not an affiliate-kit event')
    await expect(verifyWebhook({ headers: { 'X-Acme-Signature': signPayload('s', 'nope') }, body: 'nope' }, 's', { headerPrefix: 'X-Acme' })).rejects.toThrow('the body is not JSON')
  })

  it('types each payload as JSON carries it: dates as text, amounts as numbers, payout amounts as decimal text', () => {
    expectTypeOf<WebhookEventOf<'referral_converted'>['conversion']['amount']>().toEqualTypeOf<number>()
    expectTypeOf<WebhookEventOf<'referral_converted'>['conversion']['conversion_date']>().toEqualTypeOf<string>()
    expectTypeOf<WebhookEventOf<'payout.created'>['payout']['amount']>().toEqualTypeOf<string>()
    expectTypeOf<WebhookEventOf<'portal.sign_in_requested'>['sign_in']>().toEqualTypeOf<{ link: string; expires_at: string; locale?: string }>()
    expectTypeOf<WebhookEventOf<'affiliate.rejected'>['application']['reason']>().toEqualTypeOf<string | null>()
    expectTypeOf<WebhookEvent['event']>().toEqualTypeOf<(typeof EVENT_TYPES)[number]>()
  })
})
