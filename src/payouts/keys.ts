// The idempotency key a provider gets for a payout (PayPal's sender_batch_id, Stripe's
// Idempotency-Key): derived from what is paid, never from the attempt. A payout run's payout is
// keyed by the affiliate and the period it pays (docs/payouts.md "Payout runs"), any other by the payout.
import type { ProviderPayout } from '../core/model/types.js'

export function providerKey(projectId: string, sent: Pick<ProviderPayout, 'payoutId' | 'affiliateId' | 'runPeriod'>): string {
  return sent.runPeriod !== null ? `${projectId}-run-${sent.runPeriod}-affiliate-${sent.affiliateId}` : `${projectId}-payout-${sent.payoutId}`
}
