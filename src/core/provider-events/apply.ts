// Applies the provider-neutral actions of one event to a project through its use cases:
// customers become referred users, payments become conversions, refunds shrink them. Whatever
// cannot be applied yet says what it waits for (a customer, a payment, a first payment).
import type { CreateConversionResult } from '../conversions/conversion-create.js'
import type { CreateConversionInput } from '../model/schemas.js'
import { AffiliateError, ConflictError, NoExchangeRateError, NotFoundError } from '../model/errors.js'
import { Currency } from '../model/money.js'
import { couponCodeUsed, matchedCoupon } from './coupon-match.js'
import type { AliasAction, CustomerAction, MappedEvent, PaidAction, ProviderAction } from './mapping.js'
import { applyTransferReversed } from './transfer-reversed.js'
import { customerKey, outcome, recordedPayment, type ApplyTarget, type Link, type Outcome } from './outcome.js'
import { applySubscriptionEnded, applyTrialStarted } from './trial.js'
import { applyRefund } from './refund.js'

/** Applies every action in order; the event's outcome is that of its last payment or refund. */
export async function applyEvent(target: ApplyTarget, mapped: MappedEvent): Promise<Outcome> {
  if (mapped.ignored !== undefined || mapped.actions.length === 0) return outcome('ignored', mapped.ignored ?? 'nothing to apply')
  // A lone action's outcome is the event's whole outcome.
  if (mapped.actions.length === 1) return applyAction(target, mapped.actions[0]!, mapped.occurredAt)
  let result: Outcome | null = null
  const wake: string[] = []
  const links: Link[] = []
  const last = mapped.actions.length - 1
  for (const [index, action] of mapped.actions.entries()) {
    // Only the last action's outcome (with what the earlier ones wake and link) is the event's
    // whole outcome, so only the last action may settle it with its conversion.
    const settle = index === last ? target.settle : undefined
    const whole = (next: Outcome): Outcome => ({ ...next, wake: [...wake, ...next.wake], links: [...links, ...next.links] })
    const next = await applyAction({ ...target, settle: settle && ((tx, outcome) => settle(tx, whole(outcome))) }, action, mapped.occurredAt)
    wake.push(...next.wake)
    links.push(...next.links)
    if (!result || action.kind !== 'customer') result = next
  }
  return { ...result!, wake, links }
}

function applyAction(target: ApplyTarget, action: ProviderAction, occurredAt: Date): Promise<Outcome> {
  switch (action.kind) {
    case 'customer':
      return applyCustomer(target, action)
    case 'paid':
      return applyPaid(target, action, occurredAt)
    case 'refunded':
      return applyRefund(target, action)
    case 'alias':
      return applyAlias(target, action)
    case 'transfer-reversed':
      return applyTransferReversed(target, action)
    case 'trial-started':
      return applyTrialStarted(target, action, occurredAt)
    case 'subscription-ended':
      return applySubscriptionEnded(target, action)
  }
}

/** Remembers the customer (merging what earlier events taught) and makes them a referred user. */
async function applyCustomer(target: ApplyTarget, action: CustomerAction): Promise<Outcome> {
  const { scope } = target
  const { email, referral, coupons } = action.customerId === null ? action : await rememberCustomer(target, action.customerId, action)
  const wake = [...(action.customerId !== null ? [customerKey(action.customerId, null)] : []), ...(email !== null ? [`email:${email}`] : [])]
  const who = action.customerId ?? email ?? 'customer'
  const done = (detail: string) => outcome('applied', `${who}: ${detail}`, { wake })
  if (email === null) return done('remembered; its email is not known yet')
  const coupon = referral === null ? await matchedCoupon(scope, coupons) : null
  const credit = referral !== null ? { referralCode: referral } : coupon ? { affiliateId: coupon.affiliateId } : null
  if (credit === null) return done(`remembered (${email}); no referral`)
  const via = referral !== null ? `referral code ${referral}` : `coupon ${coupon!.code}`
  try {
    await scope.referrals.get(email)
    return done(`${email} is already a referred user`)
  } catch (error) {
    if (!(error instanceof AffiliateError)) throw error
    if (!(error instanceof NotFoundError)) return outcome('ignored', `${who}: ${error.message}`, { wake })
  }
  try {
    await scope.referrals.create({ email, ...credit })
    return done(`${email} became a referred user through ${via}`)
  } catch (error) {
    if (error instanceof ConflictError) return done(`${email} is already a referred user`)
    if (error instanceof AffiliateError) return done(`${via} not used: ${error.message}`)
    throw error
  }
}

/**
 * Merges what the action tells about the customer into what earlier events taught, in one step
 * across processes: the customer's events arrive at once (Paddle's customer.created with the
 * email, its transaction with the referral), and neither may overwrite the other's news.
 */
function rememberCustomer({ storage, scope, provider }: ApplyTarget, customerId: string, action: CustomerAction) {
  const link = { projectId: scope.projectId, provider, kind: 'customer', externalId: customerId }
  return storage.transaction(async (tx) => {
    // Saving no data reads the link locked: another request's save of it commits first, the next waits for this one.
    const [known] = await tx.providerEvents.saveLinks([{ ...link, data: {} }])
    const data = {
      email: action.email ?? known?.data.email ?? null,
      // The first referral a customer arrived with keeps the credit.
      referral: known?.data.referral ?? action.referral,
      // The names of the first discount, space-separated (no name has a space).
      coupons: (known?.data.coupon as string | null | undefined)?.split(' ') ?? action.coupons,
    }
    await tx.providerEvents.saveLinks([{ ...link, data: { email: data.email, referral: data.referral, coupon: data.coupons.length > 0 ? data.coupons.join(' ') : null } }])
    return data
  })
}

/** Creates the conversion of a payment, or says what it waits for. */
async function applyPaid(target: ApplyTarget, action: PaidAction, occurredAt: Date): Promise<Outcome> {
  const { storage, scope, provider } = target
  const keys = [action.reference, ...action.aliases]
  const links: Link[] = []
  // A payment made in parts keeps what was paid in all, for its parts' refunds.
  const paid: Record<string, string> = action.paidTotal === undefined ? {} : { paid: action.paidTotal.toString() }
  const payments = (data: Record<string, string | null>): Link[] => keys.map((key) => ({ kind: 'payment', externalId: key, data: { ...data, ...paid } }))
  const wake = keys.map((key) => `payment:${key}`)
  const known = action.email !== null || action.customerId === null ? null : await storage.providerEvents.getLink(scope.projectId, provider, 'customer', action.customerId)
  const email = action.email ?? known?.data.email ?? null
  if (action.firstPayment && email !== null) {
    // The customer's first payment is settled (its conversion committed, or none: free as a trial
    // starts, or earning nothing): renewals may apply.
    links.push({ kind: 'first-payment', externalId: email, data: { reference: action.reference } })
    wake.push(`first:${email}`)
  }
  const waitCustomer = customerKey(action.customerId, email)
  // Even a free first payment waits for its customer's email: seeing it lets renewals apply.
  if (email === null) return outcome('waiting', `${action.reference}: waiting for the customer's email`, { waitingFor: waitCustomer })
  if (action.amount <= 0n) {
    links.push(...payments({ reference: action.reference, conversionId: null }))
    return outcome('ignored', `${action.reference}: zero amount, no commission`, { wake, links })
  }
  const used = couponCodeUsed(action.coupons.length > 0 ? await matchedCoupon(scope, action.coupons) : null, action.coupons)
  const input = {
    type: 'purchase' as const,
    email,
    baseValue: new Currency(action.currency).amount(action.amount).format(),
    baseValueCurrency: action.currency,
    reference: action.reference,
    occurredAt,
    paymentProcessor: provider,
    ...(used !== null ? { couponCodeUsed: used } : {}),
    ...(action.productId ? { productId: action.productId } : {}),
    ...(action.cardFingerprint ? { cardFingerprint: action.cardFingerprint } : {}),
  }
  try {
    if (!action.firstPayment && !(await storage.providerEvents.getLink(scope.projectId, provider, 'first-payment', email))) {
      // A renewal that would count as the customer's first purchase came before the first one.
      const preview = await scope.conversions.preview(input)
      if (preview.basis === 'purchase') {
        return outcome('waiting', `${action.reference}: renewal waiting for the first payment of ${email}`, { waitingFor: `first:${email}`, links })
      }
    }
    const applied = ({ conversion, duplicate }: CreateConversionResult): Outcome => {
      const what = duplicate ? 'already recorded as' : 'created'
      return outcome('applied', `${action.reference}: ${what} conversion ${conversion.id} (${conversion.basis}, commission ${conversion.value} ${conversion.currency})`, {
        conversionId: conversion.id,
        wake: [...wake, `first:${email}`],
        links: [...links, ...payments({ reference: action.reference, conversionId: String(conversion.id) })],
      })
    }
    if (action.lines) return await applyLines(target, action, input, { wake: [...wake, `first:${email}`], links, payments })
    const { settle } = target
    // The outcome settled with the conversion (a duplicate reference wrote nothing, so settle did not run).
    let settled: Outcome | undefined
    const created = await scope.conversions.create(input, settle ? { inTransaction: (tx, result) => settle(tx, (settled = applied(result))) } : {})
    return settled && !created.duplicate ? { ...settled, settled: true } : applied(created)
  } catch (error) {
    if (error instanceof NotFoundError) {
      // Without its links: a first payment waiting for its customer's referral is not settled, so
      // its renewals keep waiting for it (woken with it by the referral, one could take the purchase rule).
      return outcome('waiting', `${action.reference}: no affiliate for ${email} (yet): waiting for the customer's referral`, { waitingFor: waitCustomer })
    }
    if (error instanceof NoExchangeRateError) {
      // Nothing in the program announces a new rate: an operator replays the event once there is
      // one. The key is the payment's own: a waiting event is re-checked with every event waiting
      // on its key, and one key for the currency pair would re-check every such payment each time.
      const pair = `${error.from}->${error.to}`
      return outcome('waiting', `${action.reference}: no exchange rate available for ${pair} (yet): waiting for the rate; replay the event once there is one`, { waitingFor: `rate:${pair}:${action.reference}`, links })
    }
    if (error instanceof AffiliateError) {
      // Seen, with no commission: its refunds are ignored, and renewals waiting for it go on.
      links.push(...payments({ reference: action.reference, conversionId: null }))
      return outcome('ignored', `${action.reference}: ${error.message}`, { wake, links })
    }
    throw error
  }
}

/**
 * A payment whose lines are of several products: one conversion per line (reference
 * `<payment>:<line id>`, the line's product and value), the lines one payment of the customer.
 * Each is idempotent by its reference, so a redelivered event creates none again; the payment's
 * links name every line's conversion, which its refunds shrink alike.
 */
async function applyLines(
  target: ApplyTarget,
  action: PaidAction,
  input: CreateConversionInput,
  known: { wake: string[]; links: Link[]; payments: (data: Record<string, string | null>) => Link[] },
): Promise<Outcome> {
  const currency = new Currency(action.currency)
  const created: CreateConversionResult[] = []
  for (const line of action.lines!.filter((line) => line.amount > 0n)) {
    const { productId: _product, ...rest } = input
    const lineInput = {
      ...rest,
      reference: `${action.reference}:${line.id}`,
      baseValue: currency.amount(line.amount).format(),
      paymentId: action.reference,
      ...(line.productId ? { productId: line.productId } : {}),
    }
    created.push(await target.scope.conversions.create(lineInput))
  }
  const ids = created.map(({ conversion }) => conversion.id)
  const each = created.map(({ conversion, duplicate }) => `${duplicate ? 'already recorded as' : 'created'} conversion ${conversion.id} (${conversion.basis}, commission ${conversion.value} ${conversion.currency})`)
  return outcome('applied', `${action.reference}: ${created.length} lines: ${each.join('; ')}`, {
    conversionId: ids[0] ?? null,
    wake: known.wake,
    links: [...known.links, ...known.payments({ reference: action.reference, conversionId: ids[0] === undefined ? null : String(ids[0]), conversionIds: ids.join(',') })],
  })
}

/** Links the payment's new ids to what its reference links to, and wakes the refunds naming them. */
async function applyAlias(target: ApplyTarget, action: AliasAction): Promise<Outcome> {
  const ref = action.paymentReference
  const names = action.aliases.join(', ')
  const payment = await recordedPayment(target, ref)
  if (!payment) return outcome('waiting', `${names} of ${ref}: waiting for the payment`, { waitingFor: `payment:${ref}` })
  const { conversionId } = payment
  return outcome('applied', `${names}: paid ${ref}`, {
    conversionId,
    wake: action.aliases.map((alias) => `payment:${alias}`),
    links: action.aliases.map((alias) => ({ kind: 'payment', externalId: alias, data: payment.data })),
  })
}
