// The ledger's movements (docs/payouts.md "The ledger as of a date"): every change of an
// affiliate's running totals is also recorded, when it happened, so that balances can be read as
// they stood at any moment and a period's movements explain the change of what the program owes.
import { computeBalances, type Balances } from './ledger.js'
import { payableBalance, type OpenCommission, type PayoutTerms } from './payout-terms.js'
import type { Insert, StorageTx } from '../ports/storage.js'
import type { Conversion, LedgerMovement, LedgerMovementType, Payout, TotalsDelta } from '../model/types.js'

type Sides = Pick<Conversion, 'paid'> | null

/** What moved the ledger when a conversion went from `before` to `after` with this delta. */
function conversionMovementType(before: Sides, after: Sides, delta: TotalsDelta): LedgerMovementType {
  const counted = delta.countedValue ?? 0n
  const paid = delta.paidValue ?? 0n
  const credit = delta.credit ?? 0n
  if (before === null) return 'commission'
  if (credit > 0n) return counted === 0n && paid + credit === 0n ? 'credit_return' : 'clawback'
  if (counted > 0n) return 'commission'
  if (counted < 0n) return 'reversal'
  return paid > 0n ? 'paid_outside' : 'unpaid_outside'
}

/** The movement a conversion's change makes in its affiliate's totals; null when they did not move. */
export function conversionMovement(
  conversion: Pick<Conversion, 'projectId' | 'affiliateId' | 'id' | 'holdUntil'>,
  sides: { before: Sides; after: Sides },
  delta: TotalsDelta,
  at: Date,
): Insert<LedgerMovement> | null {
  const countedValue = delta.countedValue ?? 0n
  const paidValue = delta.paidValue ?? 0n
  const credit = delta.credit ?? 0n
  if (countedValue === 0n && paidValue === 0n && credit === 0n) return null
  return {
    projectId: conversion.projectId,
    affiliateId: conversion.affiliateId,
    type: conversionMovementType(sides.before, sides.after, delta),
    conversionId: conversion.id,
    payoutId: null,
    holdUntil: conversion.holdUntil,
    countedValue,
    paidValue,
    credit,
    createdAt: at,
  }
}

/** Records how a conversion's change moved its affiliate's totals (nothing when they did not move). */
export async function recordConversionMovement(
  tx: StorageTx,
  conversion: Pick<Conversion, 'projectId' | 'affiliateId' | 'id' | 'holdUntil'>,
  sides: { before: Sides; after: Sides },
  delta: TotalsDelta,
  at: Date,
): Promise<void> {
  const movement = conversionMovement(conversion, sides, delta, at)
  if (movement) await tx.ledger.insert(movement)
}

/** Records a payout: its amount moves from unpaid to paid (settled conversions, the rest credit). */
/** A payout's movement: its recording, or (a payout sent through a provider) its settling or release at `at`. */
export async function recordPayoutMovement(tx: StorageTx, payout: Payout, delta: { paidValue: bigint; credit: bigint }, at: Date = payout.createdAt): Promise<void> {
  await tx.ledger.insert({
    projectId: payout.projectId,
    affiliateId: payout.affiliateId,
    type: 'payout',
    conversionId: null,
    payoutId: payout.id,
    holdUntil: null,
    countedValue: 0n,
    paidValue: delta.paidValue,
    credit: delta.credit,
    createdAt: at,
  })
}

/** A movement's effect on what the program owes the affiliate (unpaid = total - paid). */
export function movementAmount(movement: Pick<LedgerMovement, 'countedValue' | 'paidValue' | 'credit'>): bigint {
  return movement.countedValue - movement.paidValue - movement.credit
}

export interface BalancesAsOf extends Balances {
  /** Unpaid money payable under the payout terms, less credit. */
  payable: bigint
  /** The running totals then, and the unpaid held sum then (what computeBalances reads). */
  totals: { countedValue: bigint; paidValue: bigint; credit: bigint }
  unpaidHeld: { amount: bigint; nextReleaseAt: Date | null }
}

/** One affiliate's balances from its movements recorded up to `at` (those given). */
export function balancesAsOf(movements: readonly LedgerMovement[], at: Date, terms: PayoutTerms): BalancesAsOf {
  const totals = { countedValue: 0n, paidValue: 0n, credit: 0n }
  const open = new Map<number, OpenCommission>()
  // Oldest first, as recorded: a payout settles the conversions open when it was recorded.
  const ordered = [...movements].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
  for (const movement of ordered) {
    totals.countedValue += movement.countedValue
    totals.paidValue += movement.paidValue
    totals.credit += movement.credit
    if (movement.conversionId === null && movement.paidValue > 0n) settleReplayed(open, movement.paidValue, movement.createdAt)
    if (movement.conversionId === null || movement.holdUntil === null) continue
    const commission = open.get(movement.conversionId) ?? {
      id: movement.conversionId,
      affiliateId: movement.affiliateId,
      unpaid: 0n,
      holdUntil: movement.holdUntil,
      createdAt: movement.createdAt,
    }
    commission.unpaid += movement.countedValue - movement.paidValue
    open.set(movement.conversionId, commission)
  }
  const unpaid = [...open.values()].filter((commission) => commission.unpaid !== 0n)
  let held = 0n
  let nextReleaseAt: Date | null = null
  for (const commission of unpaid) {
    if (commission.holdUntil.getTime() <= at.getTime()) continue
    held += commission.unpaid
    if (nextReleaseAt === null || commission.holdUntil < nextReleaseAt) nextReleaseAt = commission.holdUntil
  }
  const unpaidHeld = { amount: held, nextReleaseAt }
  const balances = computeBalances(totals, unpaidHeld)
  const payable = payableBalance(unpaid, totals.credit, (commission) => terms.isPayable(commission.holdUntil, at)).amount
  // Payable is a part of eligible (docs/payouts.md): the bound holds even where a replay could not tell.
  return { ...balances, payable: payable < balances.eligible ? payable : balances.eligible, totals, unpaidHeld }
}

/**
 * A payout's movement records only the sum it settled (`paidValue`), not which conversions: they
 * are the unpaid ones past their hold then, oldest first, each wholly covered (as
 * `settleOldestFirst` chose them), so the same walk finds them again and marks them paid.
 */
function settleReplayed(open: Map<number, OpenCommission>, paidValue: bigint, at: Date): void {
  const candidates = [...open.values()]
    .filter((commission) => commission.unpaid > 0n && commission.holdUntil.getTime() <= at.getTime())
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
  let left = paidValue
  for (const commission of candidates) {
    if (commission.unpaid > left) break
    left -= commission.unpaid
    commission.unpaid = 0n
  }
}

