// Automatic payouts through Stripe Connect (docs/payouts.md "Stripe Connect"): a transfer from the
// platform's balance to the affiliate's connected account, over fetch. The Idempotency-Key is
// derived from the payout, never the attempt: a retried run gets Stripe's first answer back
// instead of a second transfer.
import type { AffiliateProgram } from '../../core/program.js'
import { providerKey } from '../keys.js'
import { STRIPE_ACCOUNT, type ProviderPayoutWithPayout } from '../../core/payouts/provider-payouts.js'

export interface StripeTransfersOptions {
  /** The platform's secret key (sk_live_..., sk_test_...). */
  secretKey: string
  /** @default 'https://api.stripe.com' */
  baseUrl?: string
}

export class StripeTransferError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'StripeTransferError'
  }
}

/** The Idempotency-Key of a payout's transfer: the project and the payout's own id. */
export function transferIdempotencyKey(projectId: string, payoutId: number): string {
  return `${projectId}-payout-${payoutId}`
}

export function stripeTransfers(program: AffiliateProgram, options: StripeTransfersOptions) {
  const base = (options.baseUrl ?? 'https://api.stripe.com').replace(/\/+$/, '')
  const service = program.providerPayouts

  /** Sends the transfer: created settles the payout; a refusal (4xx) releases it; anything else leaves it processing for the next run. */
  async function transfer(sent: ProviderPayoutWithPayout, destination: string): Promise<ProviderPayoutWithPayout> {
    const form = new URLSearchParams({
      amount: String(sent.payout.amount),
      currency: sent.payout.currency.toLowerCase(),
      destination,
      transfer_group: `payout-${sent.payoutId}`,
      'metadata[payout_id]': String(sent.payoutId),
      'metadata[project_id]': program.projectId,
    })
    const response = await fetch(`${base}/v1/transfers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': providerKey(program.projectId, sent),
      },
      body: form.toString(),
    })
    const body = (await response.json().catch(() => null)) as { id?: string; error?: { message?: string; code?: string } } | null
    if (response.ok && typeof body?.id === 'string') return service.settle(sent.payoutId, { itemStatus: 'created', reference: body.id, reply: null })
    const reply = body?.error?.message ?? `HTTP ${response.status}`
    // 4xx but 409 (an idempotent request still running) and 429 (rate limited): Stripe will not make this transfer.
    if (response.status >= 400 && response.status < 500 && response.status !== 409 && response.status !== 429) {
      return service.release(sent.payoutId, { itemStatus: body?.error?.code ?? 'refused', reply })
    }
    await service.note(sent.payoutId, { reply })
    throw new StripeTransferError(`Stripe did not answer the transfer of payout ${sent.payoutId}: ${reply}`, response.status)
  }

  return {
    provider: 'stripe' as const,

    /** Sends a payout recorded as processing (a payout run's) to the destination kept with it; Stripe not answering leaves it processing. */
    async send(sent: ProviderPayoutWithPayout): Promise<ProviderPayoutWithPayout> {
      if (sent.destination === null) return service.note(sent.payoutId, { reply: 'no Stripe connected account was kept with this payout' })
      try {
        return await transfer(sent, sent.destination)
      } catch (error) {
        if (!(error instanceof StripeTransferError)) throw error
        return (await service.get(sent.payoutId))!
      }
    },

    /**
     * Holds the amount (processing) and transfers it to the connected account `destination`
     * (acct_...), by default the one Connect onboarding recorded on the affiliate.
     */
    async pay(input: { affiliate: number | string; amount: string; destination?: string }): Promise<ProviderPayoutWithPayout> {
      const destination = input.destination ?? (await service.connectedAccount(input.affiliate))
      if (destination === null) throw new StripeTransferError('this affiliate has no Stripe connected account yet: it connects one from the portal (Connect onboarding), or pass destination', 409)
      if (!STRIPE_ACCOUNT.test(destination)) throw new StripeTransferError('destination must be a connected account id (acct_...)', 400)
      const sent = await service.start({ affiliate: input.affiliate, amount: input.amount, provider: 'stripe', destination })
      return transfer(sent, destination)
    },

    /**
     * Sends again, with the same Idempotency-Key and destination, every Stripe payout still
     * processing (after a crash or a Stripe error), oldest first; one Stripe cannot take now stays
     * processing with the reason as its reply.
     */
    async sync(): Promise<ProviderPayoutWithPayout[]> {
      const results: ProviderPayoutWithPayout[] = []
      for (const sent of await service.listProcessing()) {
        if (sent.provider !== 'stripe' || sent.destination === null) continue
        try {
          results.push(await transfer(sent, sent.destination))
        } catch (error) {
          if (!(error instanceof StripeTransferError)) throw error
          results.push((await service.get(sent.payoutId))!)
        }
      }
      return results
    },
  }
}
