// Applying a refund to the conversion its payment earned: the commission shrinks by what this
// refund adds to those already applied (running totals, single refunds by id, a payment made in
// parts), decided under the conversion's lock.
import { AffiliateError, NotFoundError } from '../model/errors.js'
import { Currency, roundHalfUp } from '../model/money.js'
import type { UpdateConversionInput } from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { ConversionView } from '../rules/views.js'
import { outcome, recordedPayment, type ApplyTarget, type Outcome } from './outcome.js'
import type { RefundedAction } from './mapping.js'

/** The link kind keeping, per conversion, what each part of a payment made in parts refunded so far. */
const PARTS = 'refunded-parts'

/** Shrinks the payment's conversion (each of its lines' conversions alike) by what this refund adds to the refunds already applied. */
export async function applyRefund(target: ApplyTarget, action: RefundedAction): Promise<Outcome> {
  const ref = action.paymentReference
  const payment = await recordedPayment(target, ref)
  if (!payment) return outcome('waiting', `refund of ${ref}: waiting for the payment`, { waitingFor: `payment:${ref}` })
  const [first, ...others] = payment.conversionIds
  if (first === undefined) return outcome('ignored', `refund of ${ref}: the payment earned no commission`)
  if (others.length === 0) return refundConversion(target, action, payment.data, first)
  const outcomes: Outcome[] = []
  for (const id of payment.conversionIds) outcomes.push(await refundConversion(target, action, payment.data, id))
  const applied = outcomes.filter((each) => each.status === 'applied')
  return outcome(applied.length > 0 ? 'applied' : 'ignored', outcomes.map((each) => each.detail).join('; '), {
    conversionId: first,
    ...(applied.length > 0 ? { refundAmount: sumAmounts(applied.map((each) => each.refundAmount!)) } : {}),
  })
}

/** The sum of decimal amounts of one currency, in the same digits. */
function sumAmounts(amounts: string[]): string {
  const digits = amounts[0]!.split('.')[1]?.length ?? 0
  const minor = amounts.reduce((sum, amount) => sum + BigInt(amount.replace('.', '')), 0n)
  const text = minor.toString().padStart(digits + 1, '0')
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/** Shrinks one conversion of the payment by what this refund adds to the refunds already applied to it. */
async function refundConversion(target: ApplyTarget, action: RefundedAction, paymentData: Record<string, string | null>, conversionId: number): Promise<Outcome> {
  const { scope, provider } = target
  const ref = action.paymentReference
  const payment = { data: paymentData }
  // Decided inside the conversion's change, under its lock, from its latest state: refunds of one
  // payment apply one after another, also in other processes, and a refund id named by two events
  // (Paddle's adjustment.created and adjustment.updated) applies once.
  const decided: { skipped?: Outcome; refund?: bigint; currency?: Currency } = {}
  const skip = (detail: string) => {
    decided.skipped = outcome('ignored', detail, { conversionId })
    return null
  }
  const decide = async (conversion: ConversionView, tx: StorageTx): Promise<UpdateConversionInput | null> => {
    // It may run again when the transaction is retried.
    decided.skipped = undefined
    if (action.single && (await tx.providerEvents.getLink(scope.projectId, provider, 'refund', action.single.refundId))) {
      return skip(`refund ${action.single.refundId} was already applied`)
    }
    if (conversion.status === 'refunded' || conversion.status === 'rejected' || conversion.baseValue === null) {
      return skip(`refund of ${ref}: conversion ${conversionId} is ${conversion.status}`)
    }
    const currency = new Currency(conversion.baseValueCurrency!)
    const base = currency.parse(conversion.baseValue, 'baseValue').minor
    const already = currency.parse(conversion.refundedBaseValue, 'refundedBaseValue').minor
    let target = already
    const part = partRefunded(action, payment.data)
    const parts = part && (await refundedParts(tx, conversionId, part))
    if (part && parts) target = roundHalfUp(base * parts.total, part.paid)
    else if (action.full) target = base
    else if (action.soFar && action.soFar.of > 0n) target = roundHalfUp(base * action.soFar.refunded, action.soFar.of)
    else if (action.single) target = already + action.single.amount
    if (target > base) target = base
    const refund = target - already
    // A part's newer total is kept even when it refunds nothing yet: the next part's refund counts it.
    if (parts?.latest) await tx.providerEvents.saveLinks([{ projectId: scope.projectId, provider, kind: PARTS, externalId: String(conversionId), data: parts.latest }])
    if (refund <= 0n) return skip(`refund of ${ref}: already applied to conversion ${conversionId}`)
    if (action.single) {
      await tx.providerEvents.saveLinks([{ projectId: scope.projectId, provider, kind: 'refund', externalId: action.single.refundId, data: { conversionId: String(conversionId) } }])
    }
    Object.assign(decided, { refund, currency })
    const reason = `${provider} refund of ${ref}`
    return target === base ? { status: 'refunded', reason } : { refundAmount: currency.amount(refund).format(), reason }
  }
  /**
   * What the payment's parts refunded so far, this part's total included, and that total to
   * save when it is newer (larger) than the one saved (an older total delivered late is not).
   */
  const refundedParts = async (tx: StorageTx, id: number, part: RefundedPart) => {
    const saved = (await tx.providerEvents.getLink(scope.projectId, provider, PARTS, String(id)))?.data ?? {}
    const latest = BigInt(saved[part.id] ?? '0') < part.refunded ? { [part.id]: part.refunded.toString() } : null
    const total = Object.values({ ...saved, ...latest }).reduce((sum, value) => sum + BigInt(value ?? '0'), 0n)
    return { total, latest }
  }
  let updated
  try {
    updated = await scope.conversions.update(conversionId, {}, { decide })
  } catch (error) {
    if (error instanceof NotFoundError) return outcome('ignored', `refund of ${ref}: conversion ${conversionId} no longer exists`)
    if (error instanceof AffiliateError) return outcome('ignored', `refund of ${ref}: ${error.message}`, { conversionId })
    throw error
  }
  if (decided.skipped) return decided.skipped
  const refunded = decided.currency!.amount(decided.refund!).format()
  return outcome('applied', `refund of ${ref}: ${refunded} ${decided.currency!.code} of conversion ${conversionId} refunded (${updated.status}, commission ${updated.value} ${updated.currency})`, {
    conversionId,
    refundAmount: refunded,
  })
}

/** One part's running refund total, of a payment made in parts (a Stripe invoice paid by several charges). */
interface RefundedPart {
  id: string
  refunded: bigint
  /** All that was paid for the payment, in the same units. */
  paid: bigint
}

/**
 * The refunded part when the refund's totals are of one part of a payment that was paid in
 * several (less than all that was paid); null for a payment paid at once.
 */
function partRefunded(action: RefundedAction, payment: Record<string, string | null>): RefundedPart | null {
  const { soFar } = action
  if (!soFar?.part || payment.paid == null) return null
  const paid = BigInt(payment.paid)
  return soFar.of < paid ? { id: soFar.part, refunded: soFar.refunded, paid } : null
}
