// The typed client's types come from the primary route table: every body the server accepts
// type-checks in the client, and every body it refuses because of a field's type does not. Checked
// by `npm run typecheck` (the @ts-expect-error lines and expectTypeOf), and at run time here: the
// same bodies really are accepted or refused by a server.
import type * as v from 'valibot'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Client, RouteBody, RouteReply } from '../../src/client/index.js'
import { primaryRoutes } from '../../src/http/routes/index.js'
import * as S from '../../src/http/schemas.js'
import { setup } from '../support/http/helpers.js'

/** The body parameter of a client method: the first of create, the second (after the path id) of update. */
type BodyOf<M extends (...args: never[]) => unknown> = Parameters<M> extends [string | number, infer Body, ...unknown[]] ? Body : Parameters<M>[0]

describe('client types', () => {
  it('are the input types of the schemas the server validates each body with', () => {
    expectTypeOf<BodyOf<Client['affiliates']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createAffiliateBody>>()
    expectTypeOf<BodyOf<Client['affiliates']['update']>>().toEqualTypeOf<v.InferInput<typeof S.updateAffiliateBody>>()
    expectTypeOf<BodyOf<Client['conversions']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createConversionBody>>()
    expectTypeOf<BodyOf<Client['conversions']['update']>>().toEqualTypeOf<v.InferInput<typeof S.updateConversionBody>>()
    expectTypeOf<BodyOf<Client['referrals']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createReferralBody>>()
    expectTypeOf<BodyOf<Client['referrals']['update']>>().toEqualTypeOf<v.InferInput<typeof S.updateReferralBody>>()
    expectTypeOf<BodyOf<Client['coupons']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createCouponBody>>()
    expectTypeOf<BodyOf<Client['coupons']['update']>>().toEqualTypeOf<v.InferInput<typeof S.updateCouponBody>>()
    expectTypeOf<BodyOf<Client['links']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createLinkBody>>()
    expectTypeOf<BodyOf<Client['links']['update']>>().toEqualTypeOf<v.InferInput<typeof S.updateLinkBody>>()
    expectTypeOf<BodyOf<Client['payouts']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createPayoutBody>>()
    expectTypeOf<BodyOf<Client['clicks']['create']>>().toEqualTypeOf<v.InferInput<typeof S.trackClickBody>>()
    expectTypeOf<BodyOf<Client['embedTokens']['create']>>().toEqualTypeOf<v.InferInput<typeof S.createEmbedTokenBody>>()
    expectTypeOf<NonNullable<Parameters<Client['payouts']['run']>[0]>>().toEqualTypeOf<v.InferInput<typeof S.payoutRunBody>>()
    expectTypeOf<NonNullable<Parameters<Client['affiliates']['reject']>[1]>>().toEqualTypeOf<v.InferInput<typeof S.rejectAffiliateBody>>()
    expectTypeOf<Parameters<Client['affiliates']['createPromotionCode']>[1]>().toEqualTypeOf<v.InferInput<typeof S.createPromotionCodeBody>>()
    // Every route of the table with a body is reachable through the client's call, typed alike.
    const withBody = primaryRoutes.filter((route) => 'body' in route).map((route) => `${route.method} ${route.path}`)
    expect(withBody.sort()).toEqual(['PATCH /links/:id', 'POST /affiliates', 'POST /affiliates/:email/promotion-codes', 'POST /affiliates/:email/reject', 'POST /clicks', 'POST /conversions', 'POST /conversions/preview', 'POST /coupons', 'POST /embed-tokens', 'POST /links', 'POST /payouts', 'POST /payouts/runs', 'POST /referrals', 'PUT /affiliates/:email', 'PUT /conversions/:id', 'PUT /coupons/:id', 'PUT /referrals/:email'])
    expectTypeOf<RouteReply<'DELETE /coupons/:id'>>().toEqualTypeOf<undefined>()
    expectTypeOf<RouteReply<'GET /payouts/:id'>['data']['amount']>().toEqualTypeOf<string>()
  })

  it('accept the bodies the server accepts and refuse those it refuses for a field type', async () => {
    const s = await setup({ settings: { multiTier: { enabled: true, tier2Rate: 10 } } })
    const post = async (path: string, body: unknown) => (await s.call('POST', path, body)).status
    const parent: RouteBody<'POST /affiliates'> = { email: 'parent@example.com', referral_code: 'PARENT' }
    expect(await post('/affiliates', parent)).toBe(201)
    // Fields the hand-written client types lacked, though the server takes them.
    const child: RouteBody<'POST /affiliates'> = { email: 'kid@example.com', referral_code: 'KID', payout_method: 'paypal', paypal_email: 'kid@example.com', parent_referral_code: 'PARENT' }
    expect(await post('/affiliates', child)).toBe(201)
    const byId: RouteBody<'POST /affiliates'> = { email: 'kid2@example.com', parent_affiliate_id: 1 }
    expect(await post('/affiliates', byId)).toBe(201)
    const sale: RouteBody<'POST /conversions'> = { type: 'purchase', referral_code: 'KID', base_value: 10, product_id: 'pro', payment_processor: 'stripe' }
    expect(await post('/conversions', sale)).toBe(201)

    // @ts-expect-error money is a JSON number: the server refuses decimal text
    const textMoney: RouteBody<'POST /conversions'> = { type: 'purchase', referral_code: 'KID', base_value: '10' }
    expect(await post('/conversions', textMoney)).toBe(400)
    // @ts-expect-error the payout amount is a number too
    const textAmount: RouteBody<'POST /payouts'> = { affiliate_id: 1, amount: '1.00' }
    expect(await post('/payouts', textAmount)).toBe(400)
    // @ts-expect-error payout_method is one of paypal, wise, manual
    const badMethod: RouteBody<'POST /affiliates'> = { email: 'x@example.com', payout_method: 'cheque' }
    expect(await post('/affiliates', badMethod)).toBe(400)
    // @ts-expect-error ids are numbers
    const textId: RouteBody<'POST /coupons'> = { affiliate_id: '1', coupon_code: 'TEN' }
    expect(await post('/coupons', textId)).toBe(400)
    // @ts-expect-error unknown fields are refused
    const unknown: RouteBody<'POST /clicks'> = { referral_code: 'KID', referer: 'x' }
    expect(await post('/clicks', unknown)).toBe(400)
    // @ts-expect-error email is required
    const noEmail: RouteBody<'POST /referrals'> = { affiliate_id: 1 }
    expect(await post('/referrals', noEmail)).toBe(400)
  })
})
