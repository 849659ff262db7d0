// Automatic payouts through PayPal Payouts (docs/payouts.md "PayPal Payouts"): one batch per payout,
// its sender_batch_id derived from the payout (never the attempt), so a run that crashed between
// PayPal's answer and our write, or simply ran twice, finds the same batch instead of paying again.
import { createHash } from 'node:crypto'
import type { AffiliateProgram } from '../../core/program.js'
import type { ProviderPayoutWithPayout } from '../../core/payouts/provider-payouts.js'
import { Currency } from '../../core/model/money.js'
import { providerKey } from '../keys.js'
import { PayPalError, type PayPalBatchItem, type PayPalClient } from './client.js'

/** PayPal's item statuses (transaction_status) and what each means for the ledger. */
const SETTLED = new Set(['SUCCESS'])
const RELEASED = new Set(['FAILED', 'RETURNED', 'BLOCKED', 'REFUNDED', 'REVERSED', 'DENIED', 'CANCELED'])
// Everything else (PENDING, UNCLAIMED, ONHOLD, NEW) keeps the payout processing: UNCLAIMED money
// goes back to the sender after 30 days, and PayPal then reports RETURNED.

export type PayPalOutcome = 'settled' | 'released' | 'processing'

export function outcomeOf(transactionStatus: string): PayPalOutcome {
  if (SETTLED.has(transactionStatus)) return 'settled'
  if (RELEASED.has(transactionStatus)) return 'released'
  return 'processing'
}

/** The sender_batch_id of a payout: the project and the payout's own id, the same on every attempt. */
export function senderBatchId(projectId: string, payoutId: number): string {
  return `${projectId}-payout-${payoutId}`
}

/**
 * The sender_item_id of a payout's item: the project and the payout's id, so an item of another
 * project (or of a batch sent before this naming) never names one of this project's payouts.
 * PayPal takes at most 63 characters: a longer project id is named by a digest of it.
 */
export function senderItemId(projectId: string, payoutId: number): string {
  const project = projectId.length <= 40 ? projectId : createHash('sha256').update(projectId).digest('hex').slice(0, 24)
  return `${project}-payout-${payoutId}`
}

/**
 * Moves a payout by its PayPal item's status (read from the batch, or from an item webhook):
 * SUCCESS settles, FAILED/RETURNED/BLOCKED/... release, the rest are noted. A payout no longer
 * processing stays as it is, so a late or repeated report changes nothing.
 */
export function recordItemStatus(program: AffiliateProgram, payoutId: number, item: Pick<PayPalBatchItem, 'transactionStatus' | 'error'>): Promise<ProviderPayoutWithPayout> {
  const service = program.providerPayouts
  const report = { itemStatus: item.transactionStatus, reply: item.error }
  switch (outcomeOf(item.transactionStatus)) {
    case 'settled':
      return service.settle(payoutId, report)
    case 'released':
      return service.release(payoutId, report)
    default:
      return service.note(payoutId, report)
  }
}

export function payPalPayouts(program: AffiliateProgram, client: PayPalClient) {
  const service = program.providerPayouts

  /** Creates (or finds again) the payout's batch and records its id. */
  async function submit(sent: ProviderPayoutWithPayout): Promise<ProviderPayoutWithPayout> {
    if (sent.reference) return sent
    const affiliate = await program.affiliates.get(sent.payout.affiliateId)
    const currency = new Currency(sent.payout.currency)
    const batch = await client.createBatch(providerKey(program.projectId, sent), [
      {
        receiver: affiliate.paypalEmail ?? affiliate.email,
        value: currency.amount(sent.payout.amount).format(),
        currency: sent.payout.currency,
        senderItemId: senderItemId(program.projectId, sent.payoutId),
      },
    ])
    return service.note(sent.payoutId, { reference: batch.batchId, itemStatus: batch.batchStatus })
  }

  /** Reads the batch and moves the payout: SUCCESS settles, FAILED/RETURNED/BLOCKED release, the rest wait. */
  async function check(sent: ProviderPayoutWithPayout): Promise<ProviderPayoutWithPayout> {
    const batch = await client.getBatch(sent.reference!)
    const item = batch.items[0]
    if (!item) return service.note(sent.payoutId, { itemStatus: batch.batchStatus })
    return recordItemStatus(program, sent.payoutId, item)
  }

  return {
    provider: 'paypal' as const,

    /** Sends a payout recorded as processing (a payout run's): creates or finds its batch, then reads it once. */
    async send(sent: ProviderPayoutWithPayout): Promise<ProviderPayoutWithPayout> {
      try {
        return await check(await submit(sent))
      } catch (error) {
        if (!(error instanceof PayPalError)) throw error
        return service.note(sent.payoutId, { reply: error.message })
      }
    },

    /** Holds the amount (processing) and sends it to the affiliate's PayPal email (else its email). */
    async pay(input: { affiliate: number | string; amount: string }): Promise<ProviderPayoutWithPayout> {
      const sent = await service.start({ ...input, provider: 'paypal' })
      return submit(sent)
    },

    /**
     * Resumes every PayPal payout still processing, oldest first: submits those whose batch id was
     * never recorded (a crash), then reads each batch's status. Safe to run at any time, as often as wanted.
     */
    async sync(): Promise<ProviderPayoutWithPayout[]> {
      const results: ProviderPayoutWithPayout[] = []
      for (const sent of await service.listProcessing()) {
        if (sent.provider !== 'paypal') continue
        try {
          results.push(await check(await submit(sent)))
        } catch (error) {
          // PayPal unreachable or refusing: the payout stays processing (its amount held), the
          // reason is shown, and the next run tries again with the same sender_batch_id.
          if (!(error instanceof PayPalError)) throw error
          results.push(await service.note(sent.payoutId, { reply: error.message }))
        }
      }
      return results
    },
  }
}
