// Trials of subscriptions (docs/commissions.md "Leads and trials"): a trial started earns the
// affiliate's trial reward once (conversion `trial:<subscription id>`), and a subscription that
// ends before its customer ever paid takes the reward back when the rule said `clawbackUnpaid`,
// as a refund does (docs/ledger.md): a reward already paid out leaves the affiliate owing it.
import { AffiliateError, NotFoundError } from '../model/errors.js'
import type { UpdateConversionInput } from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { ConversionView } from '../rules/views.js'
import type { CreateConversionResult } from '../conversions/conversion-create.js'
import type { SubscriptionEndedAction, TrialStartedAction } from './mapping.js'
import { customerKey, outcome, type ApplyTarget, type Link, type Outcome } from './outcome.js'

/** The link kind keeping, per subscription, the trial conversion and whether its rule claws it back. */
const TRIAL = 'trial'
/** The link kind remembering a subscription that ended before it earned a trial reward. */
const ENDED = 'subscription-ended'

const trialLink = (subscriptionId: string, data: Record<string, string | null>): Link => ({ kind: TRIAL, externalId: subscriptionId, data })

/** Creates the trial's conversion when the affiliate's rules reward trials, or says what it waits for. */
export async function applyTrialStarted(target: ApplyTarget, action: TrialStartedAction, occurredAt: Date): Promise<Outcome> {
  const { storage, scope, provider, settle } = target
  const reference = `trial:${action.subscriptionId}`
  const known = action.email !== null || action.customerId === null ? null : await storage.providerEvents.getLink(scope.projectId, provider, 'customer', action.customerId)
  const email = action.email ?? known?.data.email ?? null
  const waitCustomer = customerKey(action.customerId, email)
  if (email === null) return outcome('waiting', `${reference}: waiting for the customer's email`, { waitingFor: waitCustomer })
  const input = { type: 'trial' as const, email, reference, occurredAt, paymentProcessor: provider }
  // A trial starts the subscription as a free first payment does: the payments after it may apply
  // (the first paid one is the customer's first purchase), whether or not its provider sends a 0.00 invoice.
  const first = { wake: [`first:${email}`], links: [{ kind: 'first-payment', externalId: email, data: { reference } }] }
  try {
    const preview = await scope.conversions.preview(input)
    const rule = await scope.trialRule(preview.affiliateId)
    if (rule === null || /^0(\.0*)?$/.test(preview.value)) {
      return outcome('ignored', `${reference}: trials earn nothing under the rules of affiliate ${preview.affiliateId}`, { ...first, links: [...first.links, trialLink(action.subscriptionId, { conversionId: null })] })
    }
    const clawbackUnpaid = rule.clawbackUnpaid === true ? 'true' : 'false'
    const applied = ({ conversion, duplicate }: CreateConversionResult): Outcome =>
      outcome('applied', `${reference}: ${duplicate ? 'already recorded as' : 'created'} conversion ${conversion.id} (trial, commission ${conversion.value} ${conversion.currency})`, {
        conversionId: conversion.id,
        wake: first.wake,
        links: [...first.links, trialLink(action.subscriptionId, { conversionId: String(conversion.id), clawbackUnpaid })],
      })
    // Its subscription's end may have come first (a provider's retry delivers the start later, or
    // both arrive at once): the reward is recorded and, ended unpaid, taken back, as in-order
    // delivery would have left it. The end marks the subscription before it looks for the trial,
    // and the start looks for the mark after its trial is saved: of two at once, one sees the other.
    const ended = async () => clawbackUnpaid === 'true' && (await storage.providerEvents.getLink(scope.projectId, provider, ENDED, action.subscriptionId)) !== null
    const endedBefore = await ended()
    // The outcome settled with the conversion (a duplicate reference wrote nothing, so settle did not run).
    let settled: Outcome | undefined
    const created = await scope.conversions.create(input, settle && !endedBefore ? { inTransaction: (tx, result) => settle(tx, (settled = applied(result))) } : {})
    const result = settled && !created.duplicate ? { ...settled, settled: true } : applied(created)
    if (!endedBefore && !(await ended())) return result
    const back = await clawback(target, action.subscriptionId, created.conversion.id)
    return { ...result, detail: `${result.detail}; subscription ${action.subscriptionId} ended before: ${back.detail}` }
  } catch (error) {
    if (error instanceof NotFoundError) {
      return outcome('waiting', `${reference}: no affiliate for ${email} (yet): waiting for the customer's referral`, { waitingFor: waitCustomer })
    }
    // A second trial of the same customer (a trial earns once per customer), an affiliate that cannot earn.
    if (error instanceof AffiliateError) return outcome('ignored', `${reference}: ${error.message}`, first)
    throw error
  }
}

/**
 * Takes back the trial reward of a subscription that ended, when its rule said `clawbackUnpaid`
 * and its customer never paid (no first purchase recorded): decided under the conversion's lock,
 * so two end events at once (Stripe's customer.subscription.updated and .deleted) refund it once.
 */
export async function applySubscriptionEnded(target: ApplyTarget, action: SubscriptionEndedAction): Promise<Outcome> {
  const { storage, scope, provider } = target
  const name = `subscription ${action.subscriptionId} ended`
  // Marked first, so that a trial start delivered after it, or at the same time, is taken back too.
  await storage.providerEvents.saveLinks([{ projectId: scope.projectId, provider, kind: ENDED, externalId: action.subscriptionId, data: { ended: 'true' } }])
  const trial = await storage.providerEvents.getLink(scope.projectId, provider, TRIAL, action.subscriptionId)
  if (!trial || trial.data.conversionId == null) return outcome('ignored', `${name}: it earned no trial reward`)
  const conversionId = Number(trial.data.conversionId)
  if (trial.data.clawbackUnpaid !== 'true') {
    return outcome('ignored', `${name}: its trial reward (conversion ${conversionId}) stays (commission.trial.clawbackUnpaid was off when it was earned)`, { conversionId })
  }
  const done = await clawback(target, action.subscriptionId, conversionId)
  return { ...done, detail: `${name}${done.status === 'applied' ? ' unpaid' : ''}: ${done.detail}` }
}

/** Refunds the trial's conversion unless it is refunded or rejected already, or its customer paid. */
async function clawback(target: ApplyTarget, subscriptionId: string, conversionId: number): Promise<Outcome> {
  const { scope, provider } = target
  const decided: { skipped?: string } = {}
  const decide = async (conversion: ConversionView, tx: StorageTx): Promise<UpdateConversionInput | null> => {
    // It may run again when the transaction is retried.
    decided.skipped = undefined
    if (conversion.status === 'refunded' || conversion.status === 'rejected') {
      decided.skipped = `its trial reward (conversion ${conversionId}) is ${conversion.status}`
      return null
    }
    const customer = conversion.referredUserId === null ? null : await tx.referrals.get(scope.projectId, conversion.referredUserId)
    if (customer?.firstPurchaseAt) {
      decided.skipped = `the customer paid (first purchase ${customer.firstPurchaseAt.toISOString()}): the trial converted and its reward (conversion ${conversionId}) stays`
      return null
    }
    return { status: 'refunded', reason: `${provider}: the trial of subscription ${subscriptionId} ended unpaid` }
  }
  let updated: ConversionView
  try {
    updated = await scope.conversions.update(conversionId, {}, { decide })
  } catch (error) {
    if (error instanceof NotFoundError) return outcome('ignored', `its trial reward (conversion ${conversionId}) no longer exists`)
    if (error instanceof AffiliateError) return outcome('ignored', error.message, { conversionId })
    throw error
  }
  if (decided.skipped !== undefined) return outcome('ignored', decided.skipped, { conversionId })
  return outcome('applied', `trial reward clawed back (conversion ${conversionId} ${updated.status}, commission ${updated.value} ${updated.currency})`, { conversionId })
}
