// Stripe Connect transfers reversed (docs/payouts.md "Stripe Connect"): the local Stripe reverses a
// transfer and sends transfer.reversed, signed, over real HTTP to the program's Stripe webhook
// handler (the one that takes payments): the payout fails and its whole amount is back in the
// balance, payout.failed fires. A wrong, missing or stale signature is 400 and changes nothing.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import type { AffiliateProgram, StoragePort } from '../../src/index.js'
import { stripeTransfers } from '../../src/payouts/stripe/transfers.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { recordAllEvents, recordedEvents } from '../conformance/helpers.js'
import { earnings, programWithEarnings } from '../support/payouts/earnings.js'
import { SECRET_KEY, startFakeStripe, stripeSignature, WEBHOOK_SECRET } from '../support/payouts/stripe-fake.js'

type Fake = Awaited<ReturnType<typeof startFakeStripe>>
let fake: Fake | undefined
let listener: Server | undefined
afterEach(async () => {
  await fake?.close()
  listener?.closeAllConnections()
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()))
  fake = undefined
  listener = undefined
})

/** A program whose affiliate earned 30.00, 15.00 and 3.00, paid `amount` by a Stripe transfer, and its Stripe webhook URL. */
async function transferred(amount: string) {
  const storage: StoragePort = memoryStorage()
  const { program, affiliate } = await programWithEarnings({ settings: { payouts: { automatic: { stripe: true } } }, email: 'bob@example.com', storage })
  fake = await startFakeStripe({ accounts: ['acct_Bob'], now: () => program.clock.now() })
  const paid = await stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: fake.url }).pay({ affiliate: affiliate.id, amount, destination: 'acct_Bob' })
  expect(paid).toMatchObject({ state: 'paid', reference: 'tr_1' })
  await recordAllEvents(program)
  const handler = stripeHandler({ program, webhookSecret: WEBHOOK_SECRET })
  listener = createServer(handler.node)
  await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/api/v1/providers/stripe/events`
  return { program, affiliate, storage, url, payoutId: paid.payoutId }
}

/** Reverses the transfer at the local Stripe through its API, as the platform would in its dashboard. */
async function reverse(transfer: string, amount?: number) {
  const response = await fetch(`${fake!.url}/v1/transfers/${transfer}/reversals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: amount === undefined ? '' : `amount=${amount}`,
  })
  expect(response.status).toBe(200)
  return fake!.reversedEvents.at(-1)!
}

const payoutEvents = async (storage: StoragePort, program: AffiliateProgram) => (await recordedEvents(storage, program)).filter((event) => event.type.startsWith('payout.'))
const paidConversions = async (program: AffiliateProgram) => (await program.conversions.list({ paid: true })).items.map((item) => item.value).sort()

describe('Stripe Connect: transfer.reversed through the Stripe handler', () => {
  it('a transfer reversed in full: the payout fails, the conversions it settled are unpaid again, payout.failed fires; delivered again, nothing more', async () => {
    const { program, affiliate, storage, url, payoutId } = await transferred('45.00')
    expect(await paidConversions(program)).toEqual(['15.00', '30.00'])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    const event = await reverse('tr_1')
    const answer = await fake!.deliver(url, event)
    expect(answer).toMatchObject({ status: 200, body: { received: true, duplicate: false, status: 'applied' } })
    expect(answer.body.detail).toBe(`transfer tr_1 reversed: payout ${payoutId} is failed, its amount back in the balance`)
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'failed', itemStatus: 'reversed', payout: { status: 'failed' } })
    expect(await paidConversions(program)).toEqual([])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    const events = await payoutEvents(storage, program)
    expect(events).toMatchObject([{ type: 'payout.failed', body: { payout: { id: String(payoutId), amount: '45.00', provider: 'stripe', provider_status: 'reversed', reason: 'the transfer was reversed' } } }])

    expect(await fake!.deliver(url, event)).toMatchObject({ status: 200, body: { duplicate: true } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    expect(await payoutEvents(storage, program)).toEqual([])
    // The money is payable again, once.
    const again = await program.payouts.create({ affiliateId: affiliate.id, amount: '48.00' })
    expect(again).toMatchObject({ conversionsSettled: 3 })
  })

  it('a payout that left credit (40.00 settles the 30.00 conversion): the reversal takes back both, to the cent', async () => {
    const { program, affiliate, url, payoutId } = await transferred('40.00')
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '40.00', unpaid: '8.00', credit: '10.00' })
    expect((await fake!.deliver(url, await reverse('tr_1'))).body).toMatchObject({ status: 'applied' })
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'failed' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    // The ledger export over the period explains the change: its movements sum to what is owed now.
    const now = program.clock.now()
    const ledger = await program.ledger.movements({ from: new Date(now.getTime() - 86_400_000).toISOString(), to: now.toISOString() })
    const cents = ledger.filter((movement) => movement.affiliateId === affiliate.id).map((movement) => Math.round(Number(movement.amount) * 100))
    expect(cents.reduce((sum, amount) => sum + amount, 0)).toBe(4800)
  })

  it('a partial reversal is shown, not applied: the payout stays paid', async () => {
    const { program, affiliate, url, payoutId } = await transferred('45.00')
    const answer = await fake!.deliver(url, await reverse('tr_1', 1000))
    expect(answer.body).toMatchObject({ status: 'ignored', detail: `transfer tr_1 was reversed in part: payout ${payoutId} is left as it is (record the difference by hand)` })
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'paid' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
  })

  it('a wrong, missing or stale signature, or a body changed after signing: 400, nothing changes', async () => {
    const { program, affiliate, storage, url, payoutId } = await transferred('45.00')
    const event = await reverse('tr_1')
    const payload = JSON.stringify(event)
    const nowSeconds = Math.floor(program.clock.now().getTime() / 1000)
    const refusals = [
      await fake!.deliver(url, event, { secret: 'whsec_someone_else' }),
      await fake!.deliver(url, event, { signature: null }),
      await fake!.deliver(url, event, { signature: stripeSignature(payload, nowSeconds - 3600) }),
      await fake!.deliver(url, event, { body: (raw) => raw.replace('"acct_Bob"', '"acct_Eve"') }),
    ]
    expect(refusals.map((refusal) => refusal.status)).toEqual([400, 400, 400, 400])
    expect(refusals[1]!.body.error).toBe('invalid signature: missing Stripe-Signature header')
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'paid' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    expect(await payoutEvents(storage, program)).toEqual([])
    expect((await program.providerEvents.list()).items).toEqual([])
  })

  it('a reversed transfer naming another project\'s payout, or another transfer, is ignored', async () => {
    const { program, affiliate, url, payoutId } = await transferred('45.00')
    const event = await reverse('tr_1')
    const object = event.data.object
    const otherProject = { ...event, id: 'evt_other_project', data: { object: { ...object, metadata: { ...object.metadata, project_id: 'someone-else' } } } }
    expect((await fake!.deliver(url, otherProject)).body).toMatchObject({ status: 'ignored', detail: 'transfer tr_1 did not pay a payout of this project' })
    const otherTransfer = { ...event, id: 'evt_other_transfer', data: { object: { ...object, id: 'tr_999' } } }
    expect((await fake!.deliver(url, otherTransfer)).body).toMatchObject({ status: 'ignored', detail: `transfer tr_999 is not the transfer of payout ${payoutId}` })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
  })
})
