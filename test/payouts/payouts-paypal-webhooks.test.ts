// PayPal's payout item webhooks (docs/payouts.md "PayPal webhooks") over real HTTP: the local PayPal
// signs each delivery as PayPal does and verifies it through its verify-webhook-signature API; the
// listener is a node:http server. Success, unclaimed then returned, failed/blocked/denied, and
// deliveries whose signature is wrong or missing (400, nothing changes).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import type { AffiliateProgram, StoragePort } from '../../src/index.js'
import { payPalClient } from '../../src/payouts/paypal/client.js'
import { payPalPayouts } from '../../src/payouts/paypal/payouts.js'
import { payPalWebhookHandler } from '../../src/payouts/paypal/webhooks.js'
import { recordAllEvents, recordedEvents } from '../conformance/helpers.js'
import { migratedPgliteStorage } from '../support/pglite-template.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'
import { earnings, programWithEarnings } from '../support/payouts/earnings.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal, WEBHOOK_ID } from '../support/payouts/paypal-fake.js'

type Fake = Awaited<ReturnType<typeof startFakePayPal>>
let fake: Fake | undefined
let listener: Server | undefined
afterEach(async () => {
  await fake?.close()
  listener?.closeAllConnections()
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()))
  fake = undefined
  listener = undefined
})

const RECEIVER = 'ann.paypal@example.com'

/** A program whose affiliate earned 48.00, paying 45.00 through the local PayPal, and its webhook listener's URL. */
async function paying(status: string, options: { webhookId?: string } = {}) {
  fake = await startFakePayPal({ statusFor: () => status })
  const storage: StoragePort = memoryStorage()
  const { program, affiliate } = await programWithEarnings({ settings: { payouts: { automatic: { paypal: true } } }, email: 'ann@example.com', paypalEmail: RECEIVER, storage })
  await recordAllEvents(program)
  const client = payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  const handler = payPalWebhookHandler({ program, client, webhookId: options.webhookId ?? WEBHOOK_ID, onError: (error) => console.error(error) })
  listener = createServer(handler.node)
  await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/paypal/webhooks`
  const sent = await payPalPayouts(program, client).pay({ affiliate: affiliate.id, amount: '45.00' })
  return { program, affiliate, storage, url, payoutId: sent.payoutId }
}

const payoutEvents = async (storage: StoragePort, program: AffiliateProgram) => (await recordedEvents(storage, program)).filter((event) => event.type.startsWith('payout.'))

describe('PayPal payout item webhooks', () => {
  it('PAYMENT.PAYOUTS-ITEM.SUCCEEDED settles the payout oldest first; a repeated delivery changes nothing', async () => {
    const { program, affiliate, storage, url, payoutId } = await paying('SUCCESS')
    const event = fake!.itemEvent(RECEIVER)
    expect(event.event_type).toBe('PAYMENT.PAYOUTS-ITEM.SUCCEEDED')
    const answer = await fake!.deliver(url, event)
    expect(answer).toEqual({ status: 200, body: { received: true, status: 'applied', payout_id: String(payoutId), state: 'paid', item_status: 'SUCCESS' } })
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'paid', itemStatus: 'SUCCESS', payout: { status: 'paid', conversionsSettled: 2 } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    expect((await fake!.deliver(url, event)).status).toBe(200)
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    expect((await payoutEvents(storage, program)).map((each) => each.type)).toEqual(['payout.created'])
  })

  it('UNCLAIMED keeps it processing; RETURNED releases it to the balance and fires payout.failed; a late SUCCEEDED changes nothing', async () => {
    const { program, affiliate, storage, url, payoutId } = await paying('UNCLAIMED')
    expect((await fake!.deliver(url, fake!.itemEvent(RECEIVER))).body).toMatchObject({ state: 'processing', item_status: 'UNCLAIMED' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })

    fake!.setStatus(RECEIVER, 'RETURNED')
    const returned = fake!.itemEvent(RECEIVER)
    expect(returned.event_type).toBe('PAYMENT.PAYOUTS-ITEM.RETURNED')
    expect((await fake!.deliver(url, returned)).body).toMatchObject({ state: 'failed', item_status: 'RETURNED' })
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'failed', payout: { status: 'failed' } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    const events = await payoutEvents(storage, program)
    expect(events.map((each) => each.type)).toEqual(['payout.failed'])
    expect(events[0]!.body.payout).toEqual({ id: String(payoutId), amount: '45.00', currency: 'USD', method: 'paypal', provider: 'paypal', provider_status: 'RETURNED', reason: null })

    fake!.setStatus(RECEIVER, 'SUCCESS')
    expect((await fake!.deliver(url, fake!.itemEvent(RECEIVER))).body).toMatchObject({ state: 'failed', item_status: 'RETURNED' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    expect(await payoutEvents(storage, program)).toEqual([])
  })

  for (const status of ['FAILED', 'BLOCKED', 'DENIED']) {
    it(`PAYMENT.PAYOUTS-ITEM.${status} releases the amount with PayPal's error and fires payout.failed`, async () => {
      const { program, affiliate, storage, url, payoutId } = await paying(status)
      const answer = await fake!.deliver(url, fake!.itemEvent(RECEIVER))
      expect(answer.body).toMatchObject({ state: 'failed', item_status: status })
      expect(await program.providerPayouts.get(payoutId)).toMatchObject({ reply: 'RECEIVER_UNREGISTERED: Receiver is unregistered' })
      expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
      const [failed] = await payoutEvents(storage, program)
      expect(failed).toMatchObject({ type: 'payout.failed', body: { payout: { provider_status: status, reason: 'RECEIVER_UNREGISTERED: Receiver is unregistered' } } })
    })
  }

  it('a body changed after signing, a forged or missing signature, another certificate: 400, nothing changes', async () => {
    const { program, affiliate, storage, url, payoutId } = await paying('FAILED')
    const event = fake!.itemEvent(RECEIVER)
    const unchanged = async () => {
      expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'processing', itemStatus: 'PENDING' })
      expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })
      expect(await payoutEvents(storage, program)).toEqual([])
    }
    const tampered = await fake!.deliver(url, event, { tamper: (raw) => raw.replace('"FAILED"', '"SUCCESS"').replace('ITEM.FAILED', 'ITEM.SUCCEEDED') })
    expect(tampered).toEqual({ status: 400, body: { error: 'invalid signature: PayPal did not verify it' } })
    const forged = await fake!.deliver(url, event, { headers: { 'paypal-transmission-sig': Buffer.from('forged').toString('base64') } })
    expect(forged.status).toBe(400)
    const missing = await fake!.deliver(url, event, { headers: { 'paypal-transmission-sig': undefined } })
    expect(missing).toEqual({ status: 400, body: { error: 'invalid signature: missing PAYPAL-TRANSMISSION-SIG header' } })
    const otherCert = await fake!.deliver(url, event, { headers: { 'paypal-cert-url': 'https://attacker.example/cert.pem' } })
    expect(otherCert.status).toBe(400)
    await unchanged()
    // The genuine delivery applies.
    expect((await fake!.deliver(url, event)).body).toMatchObject({ state: 'failed' })
  })

  it('a listener configured for another webhook id refuses a delivery signed for this one', async () => {
    const { program, url, payoutId } = await paying('FAILED', { webhookId: 'OTHERWEBHOOK1' })
    expect(await fake!.deliver(url, fake!.itemEvent(RECEIVER))).toEqual({ status: 400, body: { error: 'invalid signature: PayPal did not verify it' } })
    expect(await program.providerPayouts.get(payoutId)).toMatchObject({ state: 'processing' })
  })

  it('ignores (200) events that are not about this program\'s payouts', async () => {
    const { url, program, affiliate } = await paying('SUCCESS')
    const event = fake!.itemEvent(RECEIVER)
    const stranger = { ...event, resource: { ...event.resource, payout_item: { ...event.resource.payout_item, sender_item_id: 'invoice-77' } } }
    expect((await fake!.deliver(url, stranger)).body).toMatchObject({ received: true, status: 'ignored' })
    const otherType = { ...event, event_type: 'PAYMENT.CAPTURE.COMPLETED' }
    expect((await fake!.deliver(url, otherType)).body).toMatchObject({ status: 'ignored' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })
  })
})

const adapters: Array<{ name: string; open: () => { storage: StoragePort; cleanup: () => Promise<void> } }> = [
  { name: 'memory', open: () => ({ storage: memoryStorage(), cleanup: async () => {} }) },
  { name: 'PGlite', open: () => migratedPgliteStorage() },
  ...(DATABASE_URL ? [{ name: 'PostgreSQL', open: () => freshPostgresStorage() }] : []),
]

describe.each(adapters)('PayPal item webhooks apply only to the batch recorded for the payout (issue 43, item 13), $name', (adapter) => {
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    await cleanup?.()
    cleanup = undefined
  })

  it('batch create answered 503: processing with no batch id; a verified SUCCEEDED of another batch is ignored (200), sync later sends it', async () => {
    fake = await startFakePayPal({ statusFor: () => 'SUCCESS' })
    const opened = adapter.open()
    cleanup = opened.cleanup
    const storage = opened.storage
    const { program, affiliate } = await programWithEarnings({ settings: { payouts: { automatic: { paypal: true } } }, email: 'ann@example.com', paypalEmail: RECEIVER, storage })
    await recordAllEvents(program)
    const client = payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
    const handler = payPalWebhookHandler({ program, client, webhookId: WEBHOOK_ID, onError: (error) => console.error(error) })
    listener = createServer(handler.node)
    await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/paypal/webhooks`
    const paypal = payPalPayouts(program, client)

    fake.failNextCreates(1)
    await expect(paypal.pay({ affiliate: affiliate.id, amount: '45.00' })).rejects.toThrow(/HTTP 503/)
    const [sent] = await program.providerPayouts.listProcessing()
    expect(sent).toMatchObject({ state: 'processing', reference: null })
    expect(fake.batches.size).toBe(0)

    // Another project's item, paid in its own batch, whose sender_item_id names the same payout id
    // (the old payout-<id> form, and this project's own form): neither moves this payout.
    const other = await programWithEarnings({ settings: { payouts: { automatic: { paypal: true } } }, email: 'eve@example.com', paypalEmail: 'eve.paypal@example.com' })
    await payPalPayouts(other.program, client).pay({ affiliate: other.affiliate.id, amount: '10.00' })
    const foreign = fake.itemEvent('eve.paypal@example.com')
    expect(foreign.resource.payout_batch_id).toMatch(/^BATCH/)
    for (const senderItemId of [`payout-${sent!.payoutId}`, `${program.projectId}-payout-${sent!.payoutId}`]) {
      const event = { ...foreign, resource: { ...foreign.resource, payout_item: { ...foreign.resource.payout_item, sender_item_id: senderItemId } } }
      const answer = await fake.deliver(url, event)
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ received: true, status: 'ignored' })
    }
    expect(await program.providerPayouts.get(sent!.payoutId)).toMatchObject({ state: 'processing', reference: null, payout: { status: 'processing' } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })
    expect(await payoutEvents(storage, program)).toEqual([])

    // Sync sends the batch PayPal never received; its own item names this project.
    const [synced] = await paypal.sync()
    expect(synced).toMatchObject({ state: 'paid', itemStatus: 'SUCCESS' })
    const ours = [...fake.batches.values()].find((batch) => batch.items[0]!.receiver === RECEIVER)!
    expect(synced!.reference).toBe(ours.batchId)
    expect(ours.items[0]!.senderItemId).toBe(`${program.projectId}-payout-${sent!.payoutId}`)
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
  })

  it("an item naming another project's payout is ignored even with this payout's batch id", async () => {
    const { program, affiliate, url, payoutId } = await paying('UNCLAIMED')
    const event = fake!.itemEvent(RECEIVER)
    expect(event.resource.payout_item.sender_item_id).toBe(`${program.projectId}-payout-${payoutId}`)
    const succeeded = { ...event, event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: { ...event.resource, transaction_status: 'SUCCESS' } }
    const foreign = { ...succeeded, resource: { ...succeeded.resource, payout_item: { ...succeeded.resource.payout_item, sender_item_id: `another-project-payout-${payoutId}` } } }
    expect((await fake!.deliver(url, foreign)).body).toMatchObject({ status: 'ignored' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })
    expect((await fake!.deliver(url, succeeded)).body).toMatchObject({ status: 'applied', state: 'paid' })
  })
})
