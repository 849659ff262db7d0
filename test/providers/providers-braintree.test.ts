// The Braintree handler's door and mapping: notifications the braintree package signs
// (webhookTesting.sampleNotification) and those signed as it verifies (braintree-scenario.ts)
// pass; a wrong key, a changed payload or a missing field answer 400 and write nothing; a signed
// payload that is not a notification is 400 too. Refunds are credit transactions naming the sale.
import braintree from 'braintree'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { braintreeHandler } from '../../src/providers/braintree/index.js'
import { snapshot } from '../conformance/helpers.js'
import { subscriptionCharged, transactionSettled, type TransactionInput } from '../support/providers/braintree-fixtures.js'
import { BRAINTREE_KEYS, braintreeForm, deliverBraintree, postBraintreeForm } from '../support/providers/braintree-scenario.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'

const gateway = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, ...BRAINTREE_KEYS })

async function program() {
  const clock = testClock('2026-02-01T00:00:00Z')
  const storage = memoryStorage()
  const made = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
  await scenarioAffiliates(made, 'BOB20')
  return { app: made, handler: braintreeHandler({ program: made, ...BRAINTREE_KEYS }) }
}

const sale: TransactionInput = { at: '2026-01-31T00:00:00Z', id: 'txn_hal1', customer: 'cus_hal', email: 'hal@example.com', amount: '22.00', tax: '2.00', customFields: { referral: 'ANN' } }

describe('braintree handler: signatures', () => {
  it("accepts notifications the braintree package signs itself, and reads ours with the package's own parser", async () => {
    const { app, handler } = await program()
    // Typed as a promise by @types/braintree; the package returns the form itself.
    const canceled = await gateway.webhookTesting.sampleNotification('subscription_canceled', 'sub_sample')
    expect(await (await postBraintreeForm(handler, { ...canceled })).json()).toMatchObject({ status: 'ignored', event_id: 'subscription_canceled:sub_sample' })
    const check = await gateway.webhookTesting.sampleNotification('check', '')
    expect(await (await postBraintreeForm(handler, { ...check })).json()).toMatchObject({ status: 'ignored', detail: 'check is not a notification affiliate-kit uses' })
    const ours = braintreeForm(transactionSettled(sale))
    const parsed = (await gateway.webhookNotification.parse(ours.bt_signature, ours.bt_payload)) as unknown as { kind: string; transaction?: { amount: string; customFields: unknown } }
    expect([parsed.kind, parsed.transaction?.amount, parsed.transaction?.customFields]).toEqual(['transaction_settled', '22.00', { referral: 'ANN' }])
    expect(await (await postBraintreeForm(handler, ours)).json()).toMatchObject({ status: 'applied', event_id: 'transaction_settled:txn_hal1' })
    // 30% of 20.00 (22.00 less 2.00 tax).
    expect((await app.affiliates.get('ann@affiliates.example')).earnings.total).toBe('6.00')
  })

  it('a wrong private key, another public key, a changed payload and missing fields answer 400 and change nothing', async () => {
    const { app, handler } = await program()
    const before = await snapshot(app)
    const event = transactionSettled(sale)
    const good = braintreeForm(event)
    const tampered = braintreeForm({ ...event, subject: { transaction: { ...(event.subject.transaction as object), amount: '2200.00' } } })
    const answers = await Promise.all([
      deliverBraintree(handler, event, undefined, { ...BRAINTREE_KEYS, privateKey: 'bt_private_other' }),
      deliverBraintree(handler, event, undefined, { ...BRAINTREE_KEYS, publicKey: 'bt_public_other' }),
      postBraintreeForm(handler, { bt_signature: good.bt_signature, bt_payload: tampered.bt_payload }),
      postBraintreeForm(handler, { bt_payload: good.bt_payload }),
      postBraintreeForm(handler, { bt_signature: good.bt_signature }),
      postBraintreeForm(handler, { bt_signature: good.bt_signature, bt_payload: `${good.bt_payload}<x>` }),
      handler(new Request('https://shop.example/hook', { method: 'POST', body: JSON.stringify(good) })),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400, 400])
    expect(await answers[0]!.json()).toEqual({ error: 'invalid signature: signature does not match payload - one has been modified' })
    expect(await answers[1]!.json()).toEqual({ error: 'invalid signature: no matching public key' })
    expect(await snapshot(app)).toBe(before)
    expect((await app.providerEvents.list()).total).toBe(0)
  })

  it('a signed payload that is not a notification, or one without its fields, answers 400 and records nothing', async () => {
    const { app, handler } = await program()
    const sign = (xml: string) => {
      const payload = `${Buffer.from(xml).toString('base64')}\n`
      // The package's own signer (untyped in @types/braintree).
      const signer = gateway.webhookTesting as unknown as { sampleSignature(payload: string): string }
      return { bt_signature: signer.sampleSignature(payload), bt_payload: payload }
    }
    const answers = [
      await postBraintreeForm(handler, sign('<notification><kind>transaction_settled</kind>')),
      await postBraintreeForm(handler, sign('<notification><kind>transaction_settled</kind><subject><transaction><id>t</id></transaction></subject></notification>')),
      await deliverBraintree(handler, transactionSettled({ ...sale, amount: '22.001' })),
      await deliverBraintree(handler, transactionSettled({ ...sale, tax: '23.00' })),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400])
    for (const answer of answers) expect(((await answer.json()) as { error: string }).error).toMatch(/^not a braintree event: /)
    expect((await app.providerEvents.list()).total).toBe(0)
  })
})

describe('braintree handler: charges and refunds', () => {
  it('a credit refunds the sale it names, once per credit; a subscription charge of cycle 2 earns the recurring rule', async () => {
    const { app, handler } = await program()
    const charge = { ...sale, id: 'txn_hal_s1', amount: '110.00', tax: '10.00' }
    expect(await (await deliverBraintree(handler, subscriptionCharged({ at: sale.at, subscription: 'sub_hal', plan: 'pro', cycle: 1, charge }))).json()).toMatchObject({ status: 'applied' })
    const renewal = { ...charge, id: 'txn_hal_s2', at: '2026-02-28T00:00:00Z', customFields: {} }
    expect(await (await deliverBraintree(handler, subscriptionCharged({ at: renewal.at, subscription: 'sub_hal', plan: 'pro', cycle: 2, charge: renewal }))).json()).toMatchObject({ status: 'applied' })
    const credit = transactionSettled({ ...charge, id: 'txn_hal_s1_r1', at: '2026-02-01T00:00:00Z', type: 'credit', amount: '27.50', tax: '2.50', refunds: 'txn_hal_s1' })
    expect(await (await deliverBraintree(handler, credit)).json()).toMatchObject({ status: 'applied', duplicate: false })
    expect(await (await deliverBraintree(handler, credit)).json()).toMatchObject({ status: 'applied', duplicate: true })
    const conversions = (await app.conversions.list()).items.map((c) => [c.reference, c.basis, c.productId, c.baseValue, c.refundedBaseValue, c.value]).sort()
    // 25.00 of 100.00 refunded: 30.00 -> 22.50; the renewal: 20% of 100.00.
    expect(conversions).toEqual([
      ['txn_hal_s1', 'purchase', 'pro', '100.00', '25.00', '22.50'],
      ['txn_hal_s2', 'recurring', 'pro', '100.00', '0.00', '20.00'],
    ])
  })

  it('a refund that comes before its sale waits for it, then applies', async () => {
    const { app, handler } = await program()
    const credit = transactionSettled({ ...sale, id: 'txn_hal1_r1', at: '2026-01-31T06:00:00Z', type: 'credit', amount: '22.00', refunds: 'txn_hal1', customFields: {} })
    expect(await (await deliverBraintree(handler, credit)).json()).toMatchObject({ status: 'waiting' })
    expect(await (await deliverBraintree(handler, transactionSettled(sale))).json()).toMatchObject({ status: 'applied' })
    expect((await app.conversions.list()).items.map((c) => c.status)).toEqual(['refunded'])
  })
})
