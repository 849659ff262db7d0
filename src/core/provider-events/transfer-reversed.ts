// A reversed transfer of a payout sent through Stripe Connect (docs/payouts.md "Stripe Connect"):
// reversed in full, the payout failed and its amount is back in the affiliate's balance. The
// transfer must be the one recorded for the payout its metadata names, in this project.
import type { TransferReversedAction } from './mapping.js'
import { outcome, type ApplyTarget, type Outcome } from './outcome.js'

export async function applyTransferReversed({ scope }: ApplyTarget, action: TransferReversedAction): Promise<Outcome> {
  const about = `transfer ${action.transfer}`
  if (action.payoutId === null || action.projectId !== scope.projectId) return outcome('ignored', `${about} did not pay a payout of this project`)
  const sent = await scope.providerPayouts.get(action.payoutId)
  if (!sent || sent.provider !== 'stripe' || (sent.reference !== null && sent.reference !== action.transfer)) {
    return outcome('ignored', `${about} is not the transfer of payout ${action.payoutId}`)
  }
  if (!action.full) return outcome('ignored', `${about} was reversed in part: payout ${action.payoutId} is left as it is (record the difference by hand)`)
  if (sent.state === 'failed') return outcome('ignored', `payout ${action.payoutId} had already failed`)
  const reversed = await scope.providerPayouts.reverse(action.payoutId, { itemStatus: 'reversed', reference: action.transfer, reply: 'the transfer was reversed' })
  return outcome('applied', `${about} reversed: payout ${action.payoutId} is ${reversed.state}, its amount back in the balance`)
}
