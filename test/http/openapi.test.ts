// The OpenAPI document: valid for an independent validator, served without a key, covering every
// route of the handler; and real responses of every operation match the schemas it was made from.
import { validate as validateOpenApi } from '@readme/openapi-parser'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { alternativeRoutes } from '../../src/http/routes/index.js'
import { OPERATIONS, openApiDocument, responseJsonSchema } from '../../src/http/openapi.js'
import { primaryRoutes } from '../../src/http/routes/index.js'
import { errorBody } from '../../src/http/shapes/primary-records.js'
import * as AR from '../../src/http/shapes/alternative-records.js'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { providerEventReplay, type ProviderEventReplay } from '../../src/providers/replay.js'
import type { StoragePort } from '../../src/index.js'
import { invoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'

/** Replays through a replayer made once the program exists (setup makes the handler first). */
function lateReplayer() {
  const late: { replayer?: ProviderEventReplay } = {}
  return { providerEvents: { replay: (id: number, project?: string) => late.replayer!.replay(id, project) }, late }
}

/** A Stripe invoice of a customer nobody referred: it waits, and is the id of a replayable event. */
async function waitingEvent(program: Parameters<typeof stripeHandler>[0]['program'], storage: StoragePort): Promise<number> {
  const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
  const invoice = invoicePaid({ at: '2026-01-31T10:00:00Z', id: 'in_Nobody', customer: 'cus_Nobody', email: 'nobody@example.com', subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Nobody' })
  await deliverStripe(handler, invoice, program.clock)
  return (await program.providerEvents.list({ status: 'waiting' })).items[0]!.id
}
import type { PayoutRunResult } from '../../src/core/payouts/payout-runs.js'
import { createHandler } from '../../src/http/index.js'
import { createPortal } from '../../src/portal/index.js'
import { caller, setup, type Reply, type Setup } from '../support/http/helpers.js'
import { stripePromotionCodes } from '../../src/providers/stripe/index.js'
import { startStripePromotionCodesApi, STRIPE_SECRET_KEY } from '../support/providers/stripe-promotion-codes-api.js'

/** One audit log entry, so GET /audit-log answers a non-empty list. */
async function recordAuditEntry(storage: ReturnType<typeof memoryStorage>, projectId: string) {
  await storage.auditLog.record({ projectId, actorId: 'key:1', actorName: 'Owner', action: 'affiliate.approve', target: 'affiliate:1', detail: null, at: new Date('2026-03-01T00:00:00Z') })
}

/** The caller of a handler like setup's, with a portal that makes sign-in links. */
function withPortal(s: Setup, storage: ReturnType<typeof memoryStorage>, shape: 'primary' | 'alternative', providerEvents: ReturnType<typeof lateReplayer>['providerEvents']) {
  const portal = createPortal(s.program, { sessions: storage, publicUrl: 'https://partners.example.com' })
  return caller(createHandler(s.program, { shape, portal, providerEvents, payoutRuns: payoutRuns(s), auditLog: storage, webhooks: s.dispatcher, state: storage.keyedState, rateLimit: false }), s.key)
}

/** Payout runs with no provider: a dry run answers a planned batch (its form checked here), a real one 409 (automatic payouts are off). */
function payoutRuns(s: Setup) {
  const planned: PayoutRunResult = {
    period: '2026-03',
    dryRun: true,
    items: [
      { affiliateId: 1, affiliateEmail: 'ann@example.com', amount: '10.00', currency: 'USD', provider: 'paypal', outcome: 'would_send', payoutId: null, resumed: false, reason: null },
      { affiliateId: 2, affiliateEmail: 'bob@example.com', amount: '5.00', currency: 'USD', provider: 'stripe', outcome: 'processing', payoutId: 7, resumed: true, reason: 'An unknown error occurred' },
    ],
    counts: { paid: 0, processing: 1, failed: 0, skipped: 0, wouldSend: 1 },
  }
  return { run: async (projectId: string, input: { dryRun: boolean }) => (input.dryRun ? planned : s.program.project(projectId).payoutRuns.run({ senders: [] })) }
}

const document = openApiDocument()

/** The payouts due, payout requests and as-of reads, with a success and a 400 or 404 each (every shape). */
async function checkPayoutReads(check: (method: string, template: string, params: Record<string, string | number>) => Promise<unknown>): Promise<void> {
    await check('GET', '/payouts/due', {})
    await check('GET', '/payouts/requests?status=open', {})
    await check('GET', '/payouts/requests?status=lost', {})
    await check('GET', '/payouts?as_of=2026-01-01T00%3A00%3A00Z', {})
    await check('GET', '/affiliates/:email/balances?as_of=2099-01-01T00%3A00%3A00Z', { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email/balances?as_of=2000-01-01T00%3A00%3A00Z', { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email/balances?as_of=yesterday', { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email?as_of=2099-01-01T00%3A00%3A00Z', { email: 'ann@example.com' })
    await check('GET', '/ledger?from=2025-01-01T00%3A00%3A00Z&to=2027-01-01T00%3A00%3A00Z', {})
    await check('GET', '/ledger?from=2020-01-01', {})
    await check('GET', '/ledger/balances?as_of=2099-01-01T00%3A00%3A00Z', {})
    await check('GET', '/ledger/balances', {})
}

describe('OpenAPI document', () => {
  it('validates with @readme/openapi-parser', async () => {
    const result = await validateOpenApi(structuredClone(document) as never)
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(result.specification).toBe('OpenAPI')
  })

  it('is served at GET /api/v1/openapi.json without an API key or rate limit', async () => {
    const s = await setup({ handler: { rateLimit: { limit: 1 } } })
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await s.call('GET', '/openapi.json', undefined, { key: null })
      expect(response.status).toBe(200)
      expect(response.body).toEqual(JSON.parse(JSON.stringify(document)))
    }
  })

  it('describes every route of the handler, and only those, in both shapes', () => {
    for (const [shape, routes] of [['primary', primaryRoutes], ['alternative', alternativeRoutes]] as const) {
      const described = openApiDocument('/api/v1', shape)
      const operations = Object.entries(described.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      const expected = routes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      expect(operations.sort(), shape).toEqual([...expected, 'GET /openapi.json'].sort())
    }
  })

  it('has each response component equal to the JSON Schema of the valibot schema it was made from', () => {
    for (const operation of OPERATIONS) {
      for (const response of Object.values(operation.responses)) {
        if (response) expect(document.components.schemas[response.name]).toEqual(responseJsonSchema(response.schema))
      }
    }
    expect(document.components.schemas.Error).toEqual(responseJsonSchema(errorBody))
  })

  it('matches real responses of every operation, successes and errors', async () => {
    const storage = memoryStorage()
    const { providerEvents, late } = lateReplayer()
    const stripeApi = await startStripePromotionCodesApi(['VIP50'])
    const promotionCodes = stripePromotionCodes({ secretKey: STRIPE_SECRET_KEY, apiBase: stripeApi.url })
    const s = await setup({ settings: { holdPeriodDays: 7 }, storage, handler: { auditLog: storage, providerEvents }, promotionCodes, links: { publicUrl: 'https://go.example' } })
    late.replayer = providerEventReplay({ program: s.program, storage })
    await recordAuditEntry(storage, s.program.projectId)
    const call = withPortal(s, storage, 'primary', providerEvents)
    const checked = new Set<string>()
    async function check(method: string, template: string, params: Record<string, string | number>, body?: unknown): Promise<Reply> {
      const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])))
      const [pathOnly] = path.split('?')
      const reply = await call(method, path, body)
      const operation = OPERATIONS.find((candidate) => candidate.method === method && candidate.path === template.split('?')[0])!
      expect(operation, `${method} ${template}`).toBeDefined()
      if (reply.status >= 400) {
        expect(operation.errors.concat([401, 403, 429]), `${method} ${pathOnly} answered ${reply.status}`).toContain(reply.status)
        expect(v.safeParse(errorBody, reply.body).success, `${method} ${pathOnly} error body`).toBe(true)
      } else {
        const response = operation.responses[reply.status]
        expect(response, `${method} ${pathOnly} answered ${reply.status}`).not.toBeUndefined()
        if (response) {
          const parsed = v.safeParse(response.schema, reply.body)
          expect(parsed.issues?.map((issue) => `${issue.path?.map((item) => item.key).join('.')}: ${issue.message}`) ?? [], `${method} ${pathOnly}`).toEqual([])
        } else {
          expect(reply.text).toBe('')
        }
        checked.add(`${method} ${template.split('?')[0]}`)
      }
      return reply
    }

    const hook = await s.program.webhooks.create({ url: 'https://hooks.example.com/a', events: ['referral_signed_up'] })
    const ann = (await check('POST', '/affiliates', {}, { email: 'ann@example.com', referral_code: 'ANN' })).body.data
    await check('POST', '/affiliates', {}, { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email', { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email', { email: 'nobody@example.com' })
    await check('PUT', '/affiliates/:email', { email: 'ann@example.com' }, { payment_details: 'IBAN' })
    await check('PUT', '/affiliates/:email', { email: 'ann@example.com' }, { commission: { purchase: { type: 'percentage', rate: 50 }, products: { prod_setup: { excluded: true } } } })
    await check('POST', '/affiliates/:email/portal-link', { email: 'ann@example.com' })
    await check('POST', '/affiliates/:email/portal-link', { email: 'nobody@example.com' })
    await check('POST', '/embed-tokens', {}, { email: 'ann@example.com', hide: ['payouts'] })
    await check('POST', '/embed-tokens', {}, { email: 'ann@example.com', ttl_seconds: 5 })
    await check('POST', '/affiliates/:email/promotion-codes', { email: 'ann@example.com' }, { code: 'ANN50', coupon: 'VIP50' })
    await check('POST', '/affiliates/:email/promotion-codes', { email: 'ann@example.com' }, { code: 'ANN50', coupon: 'VIP50' })
    await check('POST', '/affiliates/:email/promotion-codes', { email: 'ann@example.com' }, { code: 'ANN51', coupon: 'NOPE' })
    await stripeApi.close()
    await s.program.applications.apply({ email: 'pat@example.com', name: 'Pat', website: 'https://pat.example', fields: { audience: '10k' }, signup: 'review' })
    await s.program.applications.apply({ email: 'rex@example.com', name: 'Rex', signup: 'review' })
    await check('POST', '/affiliates/:email/approve', { email: 'pat@example.com' })
    await check('POST', '/affiliates/:email/approve', { email: 'nobody@example.com' })
    await check('POST', '/affiliates/:email/reject', { email: 'rex@example.com' }, { reason: 'Not a fit' })
    await check('POST', '/affiliates/:email/reject', { email: 'rex@example.com' }, {})
    await check('GET', '/affiliates?limit=5', {})
    const referral = (await check('POST', '/referrals', {}, { email: 'ref@example.com', affiliate_id: ann.id })).body.data
    await check('GET', '/referrals/:email', { email: referral.user_email })
    await check('PUT', '/referrals/:email', { email: referral.user_email }, { status: 'converted' })
    await check('GET', '/referrals?affiliate_id=1', {})
    const delivery = (await check('GET', '/webhooks/:webhookId/deliveries?status=pending', { webhookId: hook.id })).body.data[0]
    await check('GET', '/webhooks/:webhookId/deliveries/:deliveryId', { webhookId: hook.id, deliveryId: delivery.id })
    await check('GET', '/webhooks/:webhookId/deliveries/:deliveryId', { webhookId: hook.id, deliveryId: delivery.id + 1 })
    await check('POST', '/webhooks/:webhookId/deliveries/:deliveryId/retry', { webhookId: hook.id, deliveryId: delivery.id })
    const created = (await check('POST', '/conversions', {}, { type: 'purchase', referral_code: 'ANN', base_value: 49, reference: 'ch_1' })).body.data
    await check('POST', '/conversions', {}, { type: 'purchase', referral_code: 'ANN', base_value: 49, reference: 'ch_1' })
    await check('POST', '/conversions', {}, { type: 'purchase', referral_code: 'ANN', base_value: 50, reference: 'ch_1' })
    await check('POST', '/conversions', {}, { type: 'purchase', base_value: 1 })
    await check('POST', '/conversions/preview', {}, { type: 'purchase', referral_code: 'ANN', base_value: 49, product_id: 'prod_pro' })
    await check('POST', '/conversions/preview', {}, { type: 'purchase', base_value: 1 })
    await check('GET', '/conversions/:id', { id: created.id })
    await check('PUT', '/conversions/:id', { id: created.id }, { paid: true })
    await check('GET', '/conversions?paid=true', {})
    const coupon = (await check('POST', '/coupons', {}, { affiliate_id: ann.id, coupon_code: 'ANN10' })).body.data
    await check('GET', '/coupons/:id', { id: coupon.id })
    await check('PUT', '/coupons/:id', { id: coupon.id }, { processor_coupon_id: 'co_1' })
    await check('GET', '/coupons', {})
    const link = (await check('POST', '/links', {}, { affiliate: 'ann@example.com', key: 'ann-youtube', destination: 'https://shop.example/p', utm_source: 'youtube' })).body.data
    await check('POST', '/links', {}, { affiliate_id: ann.id, key: 'ANN' })
    await check('POST', '/links', {}, { affiliate: 'nobody@example.com' })
    await check('POST', '/links', {}, { affiliate_id: ann.id, destination: 'not a url' })
    await check('GET', '/links/:id', { id: link.id })
    await check('GET', '/links/:id', { id: 999_999 })
    await check('PATCH', '/links/:id', { id: link.id }, { utm_campaign: 'spring', destination: null })
    await check('PATCH', '/links/:id', { id: link.id }, { key: 'ANN' })
    await check('GET', '/links?affiliate=ann%40example.com&limit=5', {})
    await check('GET', '/links?affiliate=nobody%40example.com', {})
    await check('GET', '/links/:id/qr?format=svg&size=128', { id: link.id })
    await check('GET', '/links/:id/qr?format=gif', { id: link.id })
    await check('DELETE', '/links/:id', { id: link.id })
    await check('DELETE', '/links/:id', { id: link.id })
    await check('POST', '/clicks', {}, { referral_code: 'ANN' })
    await check('POST', '/conversions', {}, { type: 'purchase', affiliate_id: ann.id, base_value: 100 })
    s.clock.advance({ days: 8 })
    await check('POST', '/payouts/runs', {}, { dry_run: true })
    await check('POST', '/payouts/runs', {}, {})
    await check('POST', '/payouts/runs', {}, { dry_run: 'no' })
    const payout = (await check('POST', '/payouts', {}, { affiliate_id: ann.id, amount: 10 })).body.data
    await check('POST', '/payouts', {}, { affiliate_id: ann.id, amount: 1_000 })
    await check('GET', '/payouts/:id', { id: payout.id })
    await check('GET', '/payouts', {})
    await checkPayoutReads(check)
    await check('GET', '/provider-events?provider=stripe&status=applied', {})
    await check('GET', '/provider-events?status=lost', {})
    await check('POST', '/provider-events/:id/replay', { id: await waitingEvent(s.program, storage) })
    await check('POST', '/provider-events/:id/replay', { id: 987_654 })
    await check('GET', '/affiliates/:email/stats?interval=week', { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email/stats', { email: 'nobody@example.com' })
    await check('GET', '/stats?from=2026-01-01&to=2026-02-01&interval=month', {})
    await check('GET', '/stats?interval=year', {})
    await check('GET', '/analytics?group_by=affiliate&interval=week&from=2026-01-01&to=2026-02-01', {})
    await check('GET', '/analytics?metric=clicks,revenue&affiliate=ann%40example.com', {})
    await check('GET', '/analytics?group_by=colour', {})
    await check('GET', '/analytics?affiliate=nobody%40example.com', {})
    await check('GET', '/audit-log?limit=5', {})
    await check('GET', '/audit-log?offset=-1', {})
    await check('GET', '/payouts/tax-summary?year=2026', {})
    await check('GET', '/payouts/tax-summary?year=1', {})
    await check('GET', '/affiliates/:email/export', { email: 'ann@example.com' })
    await check('GET', '/affiliates/:email/export', { email: 'nobody@example.com' })
    await check('GET', '/referrals/:email/export', { email: referral.user_email })
    await check('POST', '/referrals/:email/erase', { email: referral.user_email })
    await check('POST', '/referrals/:email/erase', { email: 'nobody@example.com' })
    await check('POST', '/affiliates/:email/erase', { email: 'ann@example.com' })
    await check('POST', '/affiliates/:email/erase', { email: 'ann@example.com' })
    await check('DELETE', '/coupons/:id', { id: coupon.id })
    await check('DELETE', '/conversions/:id', { id: created.id })
    await check('DELETE', '/affiliates/:email', { email: `erased-${ann.id}@erased.invalid` })
    expect([...checked].sort()).toEqual(OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).sort())
  })

  it('describes the alternative shape too: valid, served by an alternative handler, matching its real responses', async () => {
    const alternative = openApiDocument('/api/v1', 'alternative')
    const result = await validateOpenApi(structuredClone(alternative) as never)
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(alternative.components.schemas.Error).toEqual(responseJsonSchema(AR.errorBody))

    const storage = memoryStorage()
    const { providerEvents, late } = lateReplayer()
    const stripeApi = await startStripePromotionCodesApi(['VIP50'])
    const promotionCodes = stripePromotionCodes({ secretKey: STRIPE_SECRET_KEY, apiBase: stripeApi.url })
    const s = await setup({ storage, handler: { shape: 'alternative', auditLog: storage, providerEvents }, promotionCodes, links: { publicUrl: 'https://go.example' } })
    late.replayer = providerEventReplay({ program: s.program, storage })
    await recordAuditEntry(storage, s.program.projectId)
    expect((await s.call('GET', '/openapi.json', undefined, { key: null })).body).toEqual(JSON.parse(JSON.stringify(alternative)))
    const call = withPortal(s, storage, 'alternative', providerEvents)
    const checked = new Set<string>()
    async function check(method: string, template: string, params: Record<string, string | number>, body?: unknown): Promise<Reply> {
      const [pathTemplate, search] = template.split('?')
      const path = pathTemplate!.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])))
      const reply = await call(method, search ? `${path}?${search}` : path, body)
      const route = alternativeRoutes.find((candidate) => candidate.method === method && candidate.path === pathTemplate)!
      expect(route, `${method} ${template}`).toBeDefined()
      if (reply.status >= 400) {
        expect(route.errors.concat([401, 403, 429]), `${method} ${path} answered ${reply.status}`).toContain(reply.status)
        expect(v.safeParse(AR.errorBody, reply.body).success, `${method} ${path} error body`).toBe(true)
        return reply
      }
      const response = (route.responses as Record<number, { schema: v.GenericSchema } | null>)[reply.status]
      expect(response, `${method} ${path} answered ${reply.status}`).not.toBeUndefined()
      if (response) {
        const parsed = v.safeParse(response.schema, reply.body)
        expect(parsed.issues?.map((issue) => `${issue.path?.map((item) => item.key).join('.')}: ${issue.message}`) ?? [], `${method} ${path}`).toEqual([])
      } else {
        expect(reply.text).toBe('')
      }
      checked.add(`${method} ${pathTemplate}`)
      return reply
    }

    const hook = await s.program.webhooks.create({ url: 'https://hooks.example.com/a', events: ['referral_signed_up'] })
    await check('POST', '/affiliates', {}, { email: 'ann@example.com', name: 'Ann', referralCode: 'ANN' })
    await check('POST', '/affiliates', {}, { email: 'ann@example.com', name: 'Ann' })
    await check('GET', '/affiliates/:email', { email: 'aff_1' })
    await check('PUT', '/affiliates/:email', { email: 'ann@example.com' }, { paymentDetails: 'IBAN' })
    await check('PUT', '/affiliates/:email', { email: 'ann@example.com' }, { commission: { purchase: { type: 'fixed', amount: '50.00' } } })
    await check('POST', '/affiliates/:email/portal-link', { email: 'aff_1' })
    await check('POST', '/affiliates/:email/portal-link', { email: 'nobody@example.com' })
    await check('POST', '/embed-tokens', {}, { email: 'ann@example.com', ttlSeconds: 600 })
    await check('POST', '/embed-tokens', {}, { email: 'ann@example.com', ttl_seconds: 600 })
    await check('POST', '/affiliates/:email/promotion-codes', { email: 'aff_1' }, { code: 'ANN50', coupon: 'VIP50' })
    await check('POST', '/affiliates/:email/promotion-codes', { email: 'nobody@example.com' }, { code: 'ANN51', coupon: 'VIP50' })
    await stripeApi.close()
    await s.program.applications.apply({ email: 'pat@example.com', name: 'Pat', website: 'https://pat.example', fields: { discloses: true }, signup: 'review' })
    await s.program.applications.apply({ email: 'rex@example.com', name: 'Rex', signup: 'review' })
    await check('POST', '/affiliates/:email/approve', { email: 'pat@example.com' })
    await check('POST', '/affiliates/:email/reject', { email: 'rex@example.com' }, { reason: null })
    await check('POST', '/affiliates/:email/reject', { email: 'rex@example.com' }, {})
    await check('GET', '/affiliates?limit=5', {})
    await check('POST', '/referrals', {}, { email: 'ref@example.com', referral_code: 'ANN' })
    await check('GET', '/referrals/:email', { email: 'ref@example.com' })
    await check('PUT', '/referrals/:email', { email: 'ref@example.com' }, { status: 'converted' })
    await check('GET', '/referrals', {})
    const delivery = (await check('GET', '/webhooks/:webhookId/deliveries', { webhookId: hook.id })).body.data.deliveries[0]
    await check('GET', '/webhooks/:webhookId/deliveries/:deliveryId', { webhookId: hook.id, deliveryId: delivery.id })
    await check('POST', '/webhooks/:webhookId/deliveries/:deliveryId/retry', { webhookId: hook.id, deliveryId: delivery.id })
    const created = (await check('POST', '/conversions', {}, { customer_email: 'buyer@example.com', amount: 49, referral_code: 'ANN' })).body.data.conversion
    await check('GET', '/conversions/:id', { id: created.id })
    await check('PUT', '/conversions/:id', { id: created.id }, { paid: true })
    await check('GET', '/conversions', {})
    await check('POST', '/conversions/preview', {}, { customer_email: 'buyer@example.com', amount: 49, referral_code: 'ANN' })
    await check('POST', '/conversions/preview', {}, { customer_email: 'buyer@example.com', amount: -1 })
    const coupon = (await check('POST', '/coupons', {}, { code: 'ANN10', affiliate_email: 'ann@example.com', discount_type: 'percent', discount_value: '10' })).body.data.coupon
    await check('GET', '/coupons/:id', { id: coupon.id })
    await check('PUT', '/coupons/:id', { id: coupon.id }, { processor_coupon_id: 'co_1' })
    await check('GET', '/coupons', {})
    const link = (await check('POST', '/links', {}, { affiliate: 'aff_1', key: 'ann-youtube', utm_source: 'youtube' })).body.data.link
    await check('POST', '/links', {}, { affiliate: 'ann@example.com', key: 'ann-YouTube' })
    await check('GET', '/links/:id', { id: link.id })
    await check('PATCH', '/links/:id', { id: link.id }, { utm_campaign: 'spring' })
    await check('GET', '/links?affiliate=aff_1', {})
    await check('GET', '/links/:id/qr?format=png&size=64', { id: link.id })
    await check('GET', '/links/:id/qr?size=4', { id: link.id })
    await check('DELETE', '/links/:id', { id: link.id })
    await check('POST', '/clicks', {}, { referral_code: 'ANN' })
    await check('POST', '/conversions', {}, { customer_email: 'other@example.com', amount: 100, referral_code: 'ANN' })
    await check('POST', '/payouts/runs', {}, { dry_run: true })
    await check('POST', '/payouts/runs', {}, {})
    await check('POST', '/payouts/runs', {}, { dry_run: 'no' })
    const payout = (await check('POST', '/payouts', {}, { affiliate_id: 'aff_1', amount: 10 })).body.data.payout
    await check('GET', '/payouts/:id', { id: payout.id })
    await check('GET', '/payouts', {})
    await checkPayoutReads(check)
    await check('GET', '/provider-events?provider=stripe&status=applied', {})
    await check('GET', '/provider-events?status=lost', {})
    await check('POST', '/provider-events/:id/replay', { id: await waitingEvent(s.program, storage) })
    await check('POST', '/provider-events/:id/replay', { id: 987_654 })
    await check('GET', '/affiliates/:email/stats?interval=week', { email: 'ann@example.com' })
    await check('GET', '/stats?from=2026-01-01&to=2026-02-01&interval=month', {})
    await check('GET', '/stats?interval=year', {})
    await check('GET', '/analytics?group_by=affiliate&interval=month&metric=clicks,commission', {})
    await check('GET', '/analytics?affiliate=aff_1&timezone=Asia/Tokyo', {})
    await check('GET', '/analytics?link=0', {})
    await check('GET', '/audit-log?limit=5', {})
    await check('GET', '/audit-log?offset=-1', {})
    await check('GET', '/payouts/tax-summary?year=2026', {})
    await check('GET', '/payouts/tax-summary', {})
    await check('GET', '/affiliates/:email/export', { email: 'aff_1' })
    await check('GET', '/referrals/:email/export', { email: 'ref@example.com' })
    await check('POST', '/referrals/:email/erase', { email: 'ref@example.com' })
    await check('POST', '/affiliates/:email/erase', { email: 'aff_1' })
    await check('POST', '/affiliates/:email/erase', { email: 'nobody@example.com' })
    await check('DELETE', '/coupons/:id', { id: coupon.id })
    await check('DELETE', '/conversions/:id', { id: created.id })
    await check('DELETE', '/affiliates/:email', { email: 'aff_1' })
    expect([...checked].sort()).toEqual(alternativeRoutes.map((route) => `${route.method} ${route.path}`).sort())
  })
})
