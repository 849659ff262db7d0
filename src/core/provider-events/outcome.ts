// What applying one provider event needs (the project's use cases, its storage, the provider)
// and what it comes to: an outcome, with the keys it wakes and the links it teaches.
import type { conversionChanges } from '../conversions/conversion-changes.js'
import type { conversionCreation } from '../conversions/conversion-create.js'
import type { couponsService } from '../affiliates/coupons.js'
import type { providerPayoutsService } from '../payouts/provider-payouts.js'
import type { referralsService } from '../affiliates/referrals.js'
import type { StorageTx, TransactionalStore } from '../ports/storage.js'
import type { ProviderEventStatus, ProviderLink, TrialRule } from '../model/types.js'

/** The project's use cases an event is applied through (the project loaded by the call that receives it). */
export interface ApplyServices {
  projectId: string
  referrals: Pick<ReturnType<typeof referralsService>, 'get' | 'create'>
  conversions: Pick<ReturnType<typeof conversionCreation>, 'create' | 'preview'> & Pick<ReturnType<typeof conversionChanges>, 'update'>
  coupons: Pick<ReturnType<typeof couponsService>, 'list'>
  providerPayouts: Pick<ReturnType<typeof providerPayoutsService>, 'get' | 'reverse'>
  /** The trial rule in force for the affiliate's trials (docs/commissions.md "Leads and trials"); null when trials earn nothing. */
  trialRule: (affiliateId: number) => Promise<TrialRule | null>
}

export interface ApplyTarget {
  scope: ApplyServices
  storage: TransactionalStore
  provider: string
  /**
   * Saves the event's outcome inside the transaction that creates its conversion (so the record
   * and the conversion commit together, in one transaction instead of two).
   */
  settle?: (tx: StorageTx, outcome: Outcome) => Promise<void>
}

export interface Outcome {
  status: Exclude<ProviderEventStatus, 'processing'>
  detail: string
  conversionId: number | null
  refundAmount: string | null
  waitingFor: string | null
  /** Keys whose waiting events may now apply. */
  wake: string[]
  /** Links to save with the outcome (in the same transaction, before waking). */
  links: Link[]
  /** True when `settle` saved this outcome with the conversion: nothing is left to save. */
  settled?: boolean
}

export type Link = Pick<ProviderLink, 'kind' | 'externalId' | 'data'>

export const outcome = (status: Outcome['status'], detail: string, extra: Partial<Outcome> = {}): Outcome => ({
  status,
  detail,
  conversionId: null,
  refundAmount: null,
  waitingFor: null,
  wake: [],
  links: [],
  ...extra,
})

/** The payment link saved under `ref` and the conversion it earned (null: none); null before the payment is seen. */
export async function recordedPayment({ storage, scope, provider }: ApplyTarget, ref: string) {
  const payment = await storage.providerEvents.getLink(scope.projectId, provider, 'payment', ref)
  if (!payment) return null
  const conversionId = payment.data.conversionId == null ? null : Number(payment.data.conversionId)
  // A payment of several product lines earned one conversion per line (apply.ts applyLines).
  const conversionIds = payment.data.conversionIds ? payment.data.conversionIds.split(',').map(Number) : conversionId === null ? [] : [conversionId]
  return { data: payment.data, conversionId, conversionIds }
}


/** The key a customer's waiting events wait on: its provider id, else its email. */
export const customerKey = (customerId: string | null, email: string | null) => (customerId !== null ? `customer:${customerId}` : `email:${email}`)
