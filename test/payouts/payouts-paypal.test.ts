// Automatic payouts through PayPal Payouts (docs/payouts.md "PayPal Payouts") over real HTTP to a
// local server implementing PayPal's documented endpoints: success, unclaimed then returned,
// failed and blocked, and a payer killed with SIGKILL while PayPal creates its batch.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AffiliateProgram, StoragePort } from '../../src/index.js'
import { payPalClient, PayPalError } from '../../src/payouts/paypal/client.js'
import { payPalPayouts, senderBatchId } from '../../src/payouts/paypal/payouts.js'
import { earnings, programWithEarnings as earningsProgram } from '../support/payouts/earnings.js'
import { payerProcess } from '../support/payouts/payer-process.js'
import { CLIENT_ID, CLIENT_SECRET, startFakePayPal } from '../support/payouts/paypal-fake.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

type Fake = Awaited<ReturnType<typeof startFakePayPal>>
let fake: Fake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const programWithEarnings = (storage?: StoragePort, project?: string) =>
  earningsProgram({ settings: { payouts: { automatic: { paypal: true } } }, email: 'ann@example.com', paypalEmail: 'ann.paypal@example.com', ...(storage ? { storage } : {}), ...(project ? { project } : {}) })

const paidConversions = async (program: AffiliateProgram) => (await program.conversions.list({ paid: true })).items.map((item) => item.value).sort()

describe('PayPal Payouts', () => {
  it('sends one batch with the payout as sender_batch_id, holds the amount, and settles oldest first on SUCCESS', async () => {
    fake = await startFakePayPal()
    const { program, affiliate } = await programWithEarnings()
    const paypal = payPalPayouts(program, payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
    const sent = await paypal.pay({ affiliate: 'ann@example.com', amount: '45.00' })
    expect(sent).toMatchObject({ state: 'processing', provider: 'paypal', reference: 'BATCH2', payout: { status: 'processing', method: 'paypal' } })
    const [batch] = [...fake.batches.values()]
    expect(batch).toMatchObject({ senderBatchId: senderBatchId(program.projectId, sent.payoutId), items: [{ receiver: 'ann.paypal@example.com', value: '45.00', currency: 'USD' }] })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })
    expect(await paidConversions(program)).toEqual([])

    const [synced] = await paypal.sync()
    expect(synced).toMatchObject({ state: 'paid', itemStatus: 'SUCCESS', payout: { status: 'paid', conversionsSettled: 2 } })
    expect(await paidConversions(program)).toEqual(['15.00', '30.00'])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    // Nothing left to do: a second run sends nothing and reads nothing.
    const before = fake.requests.length
    expect(await paypal.sync()).toEqual([])
    expect(fake.requests.length).toBe(before)
    expect(fake.batches.size).toBe(1)
  })

  it('keeps an UNCLAIMED payout processing, then releases it when PayPal returns it', async () => {
    fake = await startFakePayPal({ statusFor: () => 'UNCLAIMED' })
    const { program, affiliate } = await programWithEarnings()
    const paypal = payPalPayouts(program, payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
    const sent = await paypal.pay({ affiliate: affiliate.id, amount: '48.00' })
    expect(await paypal.sync()).toMatchObject([{ state: 'processing', itemStatus: 'UNCLAIMED' }])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '48.00', unpaid: '0.00', credit: '48.00' })
    await expect(program.payouts.create({ affiliateId: affiliate.id, amount: 1 })).rejects.toMatchObject({ code: 'conflict' })

    fake.setStatus('ann.paypal@example.com', 'RETURNED')
    expect(await paypal.sync()).toMatchObject([{ state: 'failed', itemStatus: 'RETURNED', payout: { status: 'failed' } }])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    expect(await paidConversions(program)).toEqual([])
    expect(await program.providerPayouts.get(sent.payoutId)).toMatchObject({ state: 'failed' })
    // A late SUCCESS for a released payout changes nothing.
    fake.setStatus('ann.paypal@example.com', 'SUCCESS')
    expect(await paypal.sync()).toEqual([])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
  })

  for (const status of ['FAILED', 'BLOCKED']) {
    it(`releases a ${status} item back to the balance with PayPal's reply`, async () => {
      fake = await startFakePayPal({ statusFor: () => status })
      const { program, affiliate } = await programWithEarnings()
      const paypal = payPalPayouts(program, payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
      await paypal.pay({ affiliate: affiliate.id, amount: '10.00' })
      expect(await earnings(program, affiliate.id)).toEqual({ paid: '10.00', unpaid: '38.00', credit: '10.00' })
      expect(await paypal.sync()).toMatchObject([{ state: 'failed', itemStatus: status, reply: 'RECEIVER_UNREGISTERED: Receiver is unregistered' }])
      expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    })
  }

  it('wrong credentials: the payout stays processing, its amount held, and the next run with the right ones pays it once', async () => {
    fake = await startFakePayPal()
    const { program, affiliate } = await programWithEarnings()
    const wrong = payPalPayouts(program, payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: 'wrong' }))
    await expect(wrong.pay({ affiliate: affiliate.id, amount: '30.00' })).rejects.toBeInstanceOf(PayPalError)
    expect(fake.batches.size).toBe(0)
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '18.00', credit: '30.00' })
    // A run with the wrong credentials keeps it processing and shows why.
    expect(await wrong.sync()).toMatchObject([{ state: 'processing', reply: 'PayPal refused the client credentials (HTTP 401)' }])
    const right = payPalPayouts(program, payPalClient({ baseUrl: fake.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
    expect(await right.sync()).toMatchObject([{ state: 'paid', itemStatus: 'SUCCESS' }])
    expect(await right.sync()).toEqual([])
    expect(fake.batches.size).toBe(1)
    expect(await paidConversions(program)).toEqual(['30.00'])
  })
})

const suite = DATABASE_URL ? describe : describe.skip
const child = (args: object) => payerProcess('paypal-child.ts', args)

suite(`PayPal Payouts on postgres: a payer killed while the batch is created${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let storage: StoragePort
  let schema: string
  let cleanup: () => Promise<void>
  beforeAll(() => {
    ;({ storage, schema, cleanup } = freshPostgresStorage())
  })
  afterAll(async () => {
    await cleanup?.()
  })

  it('kill -9 after PayPal recorded the batch, then a restart: one batch with that sender_batch_id, paid once, ledger balanced', async () => {
    fake = await startFakePayPal()
    const project = 'paypal-kill'
    const { program, affiliate } = await programWithEarnings(storage, project)
    const payer = child({ schema, project, baseUrl: fake.url, command: 'pay', affiliate: 'ann@example.com', amount: '45.00' })
    fake.holdNextCreate(() => payer.process.kill('SIGKILL'))
    expect(await payer.exit).toMatchObject({ signal: 'SIGKILL' })
    expect(fake.batches.size).toBe(1)
    // The payout is processing with no batch id recorded: its amount is held, nothing is payable twice.
    const [pending] = await program.providerPayouts.listProcessing()
    expect(pending).toMatchObject({ reference: null, state: 'processing', payout: { amount: 4500n } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })

    const restart = await child({ schema, project, baseUrl: fake.url, command: 'sync' }).exit
    expect(restart.code, restart.err).toBe(0)
    const [batch] = [...fake.batches.values()]
    expect(JSON.parse(restart.out.trim())).toEqual([{ payoutId: pending!.payoutId, state: 'paid', itemStatus: 'SUCCESS', reference: batch!.batchId }])
    expect(fake.batches.size).toBe(1)
    expect(batch!.senderBatchId).toBe(senderBatchId(program.projectId, pending!.payoutId))
    // The restart's create was refused as a duplicate and pointed at the original batch.
    expect(fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payments/payouts')).toHaveLength(2)
    expect(await paidConversions(program)).toEqual(['15.00', '30.00'])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    const again = await child({ schema, project, baseUrl: fake.url, command: 'sync' }).exit
    expect(JSON.parse(again.out.trim())).toEqual([])
    expect(fake.batches.size).toBe(1)
  }, 60_000)
})
