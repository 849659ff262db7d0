// Automatic payouts through Stripe Connect transfers (docs/payouts.md "Stripe Connect") over real
// HTTP to a local server implementing POST /v1/transfers with Idempotency-Key replays, and a payer
// killed with SIGKILL while Stripe makes its transfer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { StoragePort } from '../../src/index.js'
import { StripeTransferError, stripeTransfers, transferIdempotencyKey } from '../../src/payouts/stripe/transfers.js'
import { earnings, programWithEarnings as earningsProgram } from '../support/payouts/earnings.js'
import { payerProcess } from '../support/payouts/payer-process.js'
import { SECRET_KEY, startFakeStripe } from '../support/payouts/stripe-fake.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

type Fake = Awaited<ReturnType<typeof startFakeStripe>>
let fake: Fake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const programWithEarnings = (storage?: StoragePort, project?: string) =>
  earningsProgram({ settings: { payouts: { automatic: { stripe: true } } }, email: 'bob@example.com', ...(storage ? { storage } : {}), ...(project ? { project } : {}) })

describe('Stripe Connect transfers', () => {
  it('transfers the amount in minor units to the connected account and settles oldest first', async () => {
    fake = await startFakeStripe({ accounts: ['acct_Bob'] })
    const { program, affiliate } = await programWithEarnings()
    const stripe = stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: fake.url })
    const paid = await stripe.pay({ affiliate: affiliate.id, amount: '45.00', destination: 'acct_Bob' })
    expect(paid).toMatchObject({ state: 'paid', reference: 'tr_1', itemStatus: 'created', payout: { status: 'paid', conversionsSettled: 2 } })
    expect(fake.transfers).toEqual([{ id: 'tr_1', amount: 4500, currency: 'usd', destination: 'acct_Bob', metadata: { payout_id: String(paid.payoutId), project_id: program.projectId }, amountReversed: 0 }])
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
  })

  it('a refused transfer (no such destination) releases the amount with Stripe\'s message', async () => {
    fake = await startFakeStripe({ accounts: [] })
    const { program, affiliate } = await programWithEarnings()
    const stripe = stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: fake.url })
    const failed = await stripe.pay({ affiliate: affiliate.id, amount: '48.00', destination: 'acct_Gone' })
    expect(failed).toMatchObject({ state: 'failed', itemStatus: 'resource_missing', reply: "No such destination: 'acct_Gone'", payout: { status: 'failed' } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '0.00', unpaid: '48.00', credit: '0.00' })
    expect(fake.transfers).toEqual([])
  })

  it('a Stripe error leaves the payout processing, and the retry with the same Idempotency-Key makes one transfer', async () => {
    fake = await startFakeStripe({ accounts: ['acct_Bob'], failNext: 1 })
    const { program, affiliate } = await programWithEarnings()
    const stripe = stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: fake.url })
    const error = await stripe.pay({ affiliate: affiliate.id, amount: '30.00', destination: 'acct_Bob' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StripeTransferError)
    const [pending] = await program.providerPayouts.listProcessing()
    expect(pending).toMatchObject({ state: 'processing', reply: 'An unknown error occurred' })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '18.00', credit: '30.00' })
    expect(await stripe.sync()).toMatchObject([{ payoutId: pending!.payoutId, state: 'paid', reference: 'tr_1' }])
    expect(await stripe.sync()).toEqual([])
    expect(fake.transfers).toHaveLength(1)
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '18.00', credit: '0.00' })
    expect(transferIdempotencyKey(program.projectId, pending!.payoutId)).toBe(`${program.projectId}-payout-${pending!.payoutId}`)
  })

  it('a transfer answered but not recorded (the process died): the retry gets the same transfer back, not a second one', async () => {
    fake = await startFakeStripe({ accounts: ['acct_Bob'] })
    const { program, affiliate } = await programWithEarnings()
    const sent = await program.providerPayouts.start({ affiliate: affiliate.id, amount: '30.00', provider: 'stripe', destination: 'acct_Bob' })
    // What the dead process had sent: the same key, Stripe made the transfer, nothing was recorded.
    await fetch(`${fake.url}/v1/transfers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'idempotency-key': transferIdempotencyKey(program.projectId, sent.payoutId) },
      body: new URLSearchParams({ amount: '3000', currency: 'usd', destination: 'acct_Bob' }).toString(),
    })
    const stripe = stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: fake.url })
    expect(await stripe.sync()).toMatchObject([{ state: 'paid', reference: 'tr_1' }])
    expect(fake.transfers).toHaveLength(1)
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '30.00', unpaid: '18.00', credit: '0.00' })
  })
})

const suite = DATABASE_URL ? describe : describe.skip
const child = (args: object) => payerProcess('stripe-payer-child.ts', args)

suite(`Stripe Connect on postgres: a payer killed while the transfer is made${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let storage: StoragePort
  let schema: string
  let cleanup: () => Promise<void>
  beforeAll(() => {
    ;({ storage, schema, cleanup } = freshPostgresStorage())
  })
  afterAll(async () => {
    await cleanup?.()
  })

  it('kill -9 after Stripe made the transfer, then a restart: one transfer for that Idempotency-Key, paid once, ledger balanced', async () => {
    fake = await startFakeStripe({ accounts: ['acct_Bob'] })
    const project = 'stripe-kill'
    const { program, affiliate } = await programWithEarnings(storage, project)
    const payer = child({ schema, project, baseUrl: fake.url, command: 'pay', affiliate: 'bob@example.com', amount: '45.00', destination: 'acct_Bob' })
    fake.holdNextTransfer(() => payer.process.kill('SIGKILL'))
    expect(await payer.exit).toMatchObject({ signal: 'SIGKILL' })
    expect(fake.transfers).toHaveLength(1)
    // Processing with no transfer recorded: its amount is held, nothing is payable twice.
    const [pending] = await program.providerPayouts.listProcessing()
    expect(pending).toMatchObject({ reference: null, state: 'processing', destination: 'acct_Bob', payout: { amount: 4500n } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '45.00' })
    await expect(program.payouts.create({ affiliateId: affiliate.id, amount: 1 })).rejects.toMatchObject({ code: 'conflict' })

    const restart = await child({ schema, project, baseUrl: fake.url, command: 'sync' }).exit
    expect(restart.code, restart.err).toBe(0)
    expect(JSON.parse(restart.out.trim())).toEqual([{ payoutId: pending!.payoutId, state: 'paid', itemStatus: 'created', reference: 'tr_1' }])
    // Stripe replayed its first answer for the key: one transfer was ever made.
    expect(fake.transfers).toHaveLength(1)
    expect(fake.transferRequests()).toBe(1)
    expect(fake.transfers[0]).toMatchObject({ amount: 4500, destination: 'acct_Bob', metadata: { payout_id: String(pending!.payoutId) } })
    expect(await earnings(program, affiliate.id)).toEqual({ paid: '45.00', unpaid: '3.00', credit: '0.00' })
    expect((await program.conversions.list({ paid: true })).items.map((item) => item.value).sort()).toEqual(['15.00', '30.00'])
    const again = await child({ schema, project, baseUrl: fake.url, command: 'sync' }).exit
    expect(JSON.parse(again.out.trim())).toEqual([])
    expect(fake.transfers).toHaveLength(1)
  }, 60_000)
})
