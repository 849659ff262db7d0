// Webhook delivery to real local receivers: every event kind with its headers, payload and a
// signature that verifiers nobody here wrote accept (@octokit/webhooks-methods, standardwebhooks).
import { verify as octokitVerify } from '@octokit/webhooks-methods'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { EVENT_TYPES, type AffiliateProgram } from '../../src/index.js'
import { verifySignature, verifyStandardWebhook } from '../../src/webhooks/index.js'
import { signUp, startReceiver, webhookProgram, type ReceivedRequest, type Receiver } from '../support/webhooks-helpers.js'

const receivers: Receiver[] = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
})
async function receiver(): Promise<Receiver> {
  const started = await startReceiver()
  receivers.push(started)
  return started
}

/** Causes all five event kinds: six events (referral_updated twice). */
async function causeEveryEvent(program: AffiliateProgram) {
  const affiliate = await program.affiliates.create({ email: 'ann@example.com', paypalEmail: 'pay@example.com' })
  const referral = await program.referrals.create({ email: 'bob@example.com', affiliateId: affiliate.id, userAgent: 'UA/1', ipAddress: '203.0.113.9' })
  const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, reference: 'order-1', email: 'bob@example.com', paymentProcessor: 'stripe', productId: 'prod_1' })
  const payout = await program.payouts.create({ affiliateId: affiliate.id, amount: 30, method: 'paypal' })
  await program.conversions.update(conversion.id, { status: 'refunded', reason: 'requested_by_customer' })
  return { affiliate, referral, conversion, payout }
}

function body(request: ReceivedRequest): Record<string, unknown> {
  return JSON.parse(request.body) as Record<string, unknown>
}

describe('webhook delivery', () => {
  it('delivers every event kind with the documented headers, payload members and a verifiable signature', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver()
    const secret = 'whsec-plain-secret'
    const endpoint = await program.webhooks.create({ url: hook.url, events: [...EVENT_TYPES], secret })
    const { affiliate, referral, conversion, payout } = await causeEveryEvent(program)

    expect(await dispatcher.dispatch()).toBe(6)
    const kinds = hook.requests.map((request) => request.headers['x-service-event'])
    expect([...kinds].sort()).toEqual(
      ['payout.created', 'referral_canceled', 'referral_converted', 'referral_signed_up', 'referral_updated', 'referral_updated'].sort(),
    )
    const deliveries = await program.webhooks.deliveries({ endpointId: endpoint.id })
    for (const request of hook.requests) {
      expect(request.method).toBe('POST')
      expect(request.headers['content-type']).toBe('application/json')
      expect(request.headers['user-agent']).toBe('Service-Webhooks/1.0')
      const signature = request.headers['x-service-signature'] as string
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/)
      expect(await octokitVerify(secret, request.body, signature)).toBe(true)
      expect(verifySignature(secret, request.body, signature)).toBe(true)
      expect(verifySignature(secret, Buffer.from(request.body), signature)).toBe(true)
      expect(verifySignature('other', request.body, signature)).toBe(false)
      expect(verifySignature(secret, request.body + ' ', signature)).toBe(false)
      const parsed = body(request)
      expect(parsed.event).toBe(request.headers['x-service-event'])
      expect(parsed).toMatchObject({
        project_id: program.projectId,
        affiliate: { id: String(affiliate.id), email: 'ann@example.com', payout_preferences: { paypal_email: 'pay@example.com' } },
      })
      expect(Number.isInteger(parsed.timestamp)).toBe(true)
      // The delivery header names a delivery of this endpoint with this event.
      const delivery = deliveries.items.find((item) => String(item.id) === request.headers['x-service-delivery'])
      expect(delivery?.eventType).toBe(request.headers['x-service-event'])
    }
    const of = (kind: string) => hook.requests.filter((request) => request.headers['x-service-event'] === kind).map(body)
    expect(of('referral_signed_up')[0]).toMatchObject({
      referred: { id: String(referral.id), email: 'bob@example.com' },
      data: { referral_code: affiliate.referralCode, user_agent: 'UA/1', ip_address: '203.0.113.9' },
    })
    expect(typeof (of('referral_signed_up')[0]!.data as { signup_date: unknown }).signup_date).toBe('string')
    expect(of('referral_converted')[0]).toMatchObject({
      conversion: { id: String(conversion.id), amount: 100, currency: 'USD', commission_amount: 30, commission_type: 'percentage', commission_rate: 30, order_id: 'order-1' },
    })
    expect(Object.keys(of('referral_converted')[0]!.conversion as object).sort()).toEqual(
      ['amount', 'commission_amount', 'commission_rate', 'commission_type', 'conversion_date', 'currency', 'id', 'order_id', 'payment_processor', 'product_id', 'review_reason'],
    )
    expect(of('referral_updated')[0]).toMatchObject({ conversion: { id: String(conversion.id), amount: 100, amount_usd: 100, commission_amount: 30, base_value: 100, reference: 'order-1' } })
    expect(of('referral_canceled')[0]).toMatchObject({ conversion: { id: String(conversion.id), amount: 100, refund_amount: 100, reason: 'requested_by_customer' } })
    expect(typeof (of('referral_canceled')[0]!.conversion as { canceled_date: unknown }).canceled_date).toBe('string')
    expect(of('payout.created')[0]).toMatchObject({ payout: { id: String(payout.id), amount: '30.00', currency: 'USD', method: 'paypal', conversions_settled: 1 } })

    // Exactly the members docs/webhooks.md "Payloads" lists.
    const members: Record<string, [string, string[]]> = {
      referral_signed_up: ['data', ['ip_address', 'referral_code', 'signup_date', 'user_agent']],
      referral_converted: ['conversion', ['amount', 'commission_amount', 'commission_rate', 'commission_type', 'conversion_date', 'currency', 'id', 'order_id', 'payment_processor', 'product_id', 'review_reason']],
      referral_canceled: ['conversion', ['amount', 'canceled_date', 'commission_amount', 'id', 'reason', 'refund_amount']],
      referral_updated: ['conversion', ['amount', 'amount_usd', 'base_value', 'commission_amount', 'conversion_date', 'id', 'reference', 'review_reason']],
      'payout.created': ['payout', ['amount', 'conversions_settled', 'currency', 'id', 'method', 'payment_date']],
    }
    for (const [kind, [member, keys]] of Object.entries(members)) {
      for (const parsed of of(kind)) {
        expect(Object.keys(parsed).sort()).toEqual(['affiliate', 'event', member, 'project_id', 'referred', 'timestamp'].sort())
        expect(Object.keys(parsed[member] as object).sort()).toEqual(keys)
      }
    }

    const log = await program.webhooks.deliveries({ endpointId: endpoint.id, status: 'succeeded' })
    expect(log.total).toBe(6)
    const attempts = await program.webhooks.attempts(log.items[0]!.id)
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({ statusCode: 200, responseExcerpt: 'ok', error: null })
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0)
    // Nothing is due any more.
    expect(await dispatcher.dispatch()).toBe(0)
    expect(hook.requests).toHaveLength(6)
  })

  it('sends only subscribed events, no signature without a secret, and honours prefix and User-Agent options', async () => {
    const { program, dispatcher } = await webhookProgram({ webhooks: { headerPrefix: 'X-Acme', userAgent: 'Acme-Hooks/2' } })
    const hook = await receiver()
    await program.webhooks.create({ url: hook.url, events: ['payout.created'] })
    await causeEveryEvent(program)
    expect(await dispatcher.dispatch()).toBe(1)
    const [request] = hook.requests
    expect(request!.headers).toMatchObject({ 'x-acme-event': 'payout.created', 'user-agent': 'Acme-Hooks/2' })
    expect(request!.headers['x-acme-delivery']).toMatch(/^\d+$/)
    expect(request!.headers['x-acme-signature']).toBeUndefined()
    expect(request!.headers['x-service-event']).toBeUndefined()
  })

  it('during a rotation: X-Service-Signature carries only the new secret (verified by @octokit/webhooks-methods), the old one travels in X-Service-Signature-Previous until the grace ends', async () => {
    const { program, clock, dispatcher } = await webhookProgram()
    const hook = await receiver()
    const endpoint = await program.webhooks.create({ url: hook.url, events: ['payout.created'], secret: 'old-secret' })
    const view = await program.webhooks.rotateSecret(endpoint.id, 'new-secret', 3600)
    expect(JSON.stringify(view)).not.toContain('secret"')
    const affiliate = await program.affiliates.create({ email: 'rot@example.com' })
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 10 })
    await program.payouts.create({ affiliateId: affiliate.id, amount: 1 })
    await dispatcher.dispatch()
    const { body, headers } = hook.requests[0]!
    const signature = headers['x-service-signature'] as string
    const previous = headers['x-service-signature-previous'] as string
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(await octokitVerify('new-secret', body, signature)).toBe(true)
    expect(await octokitVerify('old-secret', body, signature)).toBe(false)
    expect(await octokitVerify('old-secret', body, previous)).toBe(true)
    // A receiver still on the old secret accepts either header, as does one already on the new.
    expect(verifySignature('old-secret', body, [signature, previous])).toBe(true)
    expect(verifySignature('new-secret', body, [signature, previous])).toBe(true)
    expect(verifySignature('new-secret', body, signature)).toBe(true)
    expect(verifySignature('other-secret', body, [signature, previous])).toBe(false)

    clock.advance({ hours: 2 })
    await program.payouts.create({ affiliateId: affiliate.id, amount: 1 })
    await dispatcher.dispatch()
    const later = hook.requests[1]!
    expect(later.headers['x-service-signature-previous']).toBeUndefined()
    expect(await octokitVerify('new-secret', later.body, later.headers['x-service-signature'] as string)).toBe(true)
    expect(verifySignature('old-secret', later.body, [later.headers['x-service-signature'] as string])).toBe(false)
  })

  it('the previous-signature header follows the header prefix option', async () => {
    const { program, dispatcher } = await webhookProgram({ webhooks: { headerPrefix: 'X-Acme' } })
    const hook = await receiver()
    const endpoint = await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'], secret: 'one' })
    await program.webhooks.rotateSecret(endpoint.id, 'two', 60)
    await signUp(program)
    await dispatcher.dispatch()
    const { body, headers } = hook.requests[0]!
    expect(await octokitVerify('two', body, headers['x-acme-signature'] as string)).toBe(true)
    expect(await octokitVerify('one', body, headers['x-acme-signature-previous'] as string)).toBe(true)
  })

  it('Standard Webhooks mode: webhook-id/timestamp/signature verified by the standardwebhooks package', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver()
    const secret = `whsec_${Buffer.from('a-32-byte-long-secret-for-tests!').toString('base64')}`
    await program.webhooks.create({ url: hook.url, events: [...EVENT_TYPES], secret, mode: 'standard' })
    await causeEveryEvent(program)
    await dispatcher.dispatch()
    expect(hook.requests).toHaveLength(6)
    const verifier = new Webhook(secret)
    for (const request of hook.requests) {
      const headers = {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      }
      expect(headers['webhook-signature']).toMatch(/^v1,/)
      expect(request.headers['x-service-signature']).toBeUndefined()
      expect(verifier.verify(request.body, headers)).toEqual(JSON.parse(request.body))
      expect(verifyStandardWebhook(secret, request.body, request.headers)).toBe(true)
      expect(() => verifier.verify(request.body.replace('"event"', '"event" '), headers)).toThrow()
    }
    // Replay resistance: an old timestamp is refused even with a valid signature.
    const request = hook.requests[0]!
    const later = new Date((Number(request.headers['webhook-timestamp']) + 3600) * 1000)
    expect(verifyStandardWebhook(secret, request.body, request.headers, { now: later })).toBe(false)
    // The id is stable per delivery: distinct across deliveries.
    expect(new Set(hook.requests.map((item) => item.headers['webhook-id'])).size).toBe(6)
  })

  it('start() delivers in the background and stop() drains in-flight sends', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver()
    hook.reply((_request, response) => setTimeout(() => response.writeHead(200).end('slow ok'), 200))
    await program.webhooks.create({ url: hook.url, events: [...EVENT_TYPES] })
    dispatcher.start({ concurrency: 4, pollIntervalMs: 20 })
    await causeEveryEvent(program)
    while (hook.requests.length < 6) await new Promise((resolve) => setTimeout(resolve, 10))
    await dispatcher.stop()
    const log = await program.webhooks.deliveries()
    expect(log.items.map((item) => item.status)).toEqual(new Array(6).fill('succeeded'))
  })
})
