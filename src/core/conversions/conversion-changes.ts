// Reading, listing, changing and deleting conversions: paid flag, status (refund, reject,
// review, approve), partial refunds with clawback, value edits (docs/ledger.md).
import { recordConversionMovement } from '../rules/ledger-movements.js'
import { listWindow, withConflicts } from '../ports/conflicts.js'
import { usdAmount, type ProjectContext } from '../rules/context.js'
import { ConflictError, NotFoundError, ValidationError } from '../model/errors.js'
import { conversionEvents } from '../ports/events.js'
import { isCounted, ledgerDelta } from '../rules/ledger.js'
import { Currency, currencyOr, roundHalfUp } from '../model/money.js'
import {
  listConversionsInput,
  updateConversionInput,
  validate,
  type ListConversionsInput,
  type UpdateConversionInput,
} from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { Conversion } from '../model/types.js'
import { conversionView, type ConversionView } from '../rules/views.js'

const TERMINAL = new Set(['refunded', 'rejected'])

export interface UpdateConversionOptions {
  /**
   * Decides the change from the conversion's latest state, read under the lock the change holds:
   * concurrent callers, also in other processes, decide one after another. Its result replaces
   * the input; null changes nothing. What it writes through `tx` commits or rolls back with the
   * change. For changes computed from the current amounts (a refund "so far" becomes a refund of
   * the difference).
   */
  decide?: (conversion: ConversionView, tx: StorageTx) => Promise<UpdateConversionInput | null>
}

export function conversionChanges(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function find(tx: StorageTx, id: number): Promise<Conversion> {
    const conversion = await tx.conversions.get(projectId, id)
    if (!conversion) throw new NotFoundError('conversion not found', 'id')
    return conversion
  }

  /**
   * Reads the conversion for a change: locks its affiliate first (as payouts do, so the two never
   * deadlock), then reads the conversion again, so concurrent changes apply one after another
   * to the latest state instead of overwriting each other.
   */
  async function findForChange(tx: StorageTx, id: number): Promise<Conversion> {
    const seen = await find(tx, id)
    await tx.affiliates.lockForUpdate(projectId, seen.affiliateId)
    return find(tx, id)
  }

  /** The next state of the conversion and how much of its base value this change refunds. */
  function nextState(conversion: Conversion, data: ReturnType<typeof parse>, currency: Currency) {
    const next: Conversion = { ...conversion }
    const baseCurrency = currencyOr(data.baseValueCurrency ?? conversion.baseCurrency, currency)
    if (data.baseValueCurrency !== undefined) next.baseCurrency = data.baseValueCurrency
    if (data.baseValue !== undefined) next.baseValue = baseCurrency.parse(data.baseValue, 'baseValue').minor
    if (data.type !== undefined) next.type = data.type
    if (data.reference !== undefined) next.reference = data.reference
    if (data.couponCodeUsed !== undefined) next.couponCodeUsed = data.couponCodeUsed
    const changesMoney = data.value !== undefined || data.status !== undefined || data.refundAmount !== undefined || data.paid !== undefined
    if (changesMoney && TERMINAL.has(conversion.status)) {
      throw new ConflictError(`conversion is ${conversion.status}; its status and amounts are final`, 'status')
    }
    if (data.value !== undefined) {
      const value = currency.parse(data.value, 'value').minor
      if (value !== conversion.value && conversion.paid && isCounted(conversion) && data.paid !== false) {
        throw new ConflictError('conversion is paid; mark it unpaid before changing its value', 'value')
      }
      next.value = value
    }
    if (data.paid !== undefined && data.paid !== conversion.paid) {
      next.paid = data.paid
      next.paidByPayoutId = null
    }
    if (data.status !== undefined && data.status !== conversion.status) {
      next.status = data.status
      // Money of a paid conversion that left the ledger went to credit; back in, it is unpaid.
      if (!isCounted(conversion) && isCounted(next) && conversion.paid) {
        next.paid = false
        next.paidByPayoutId = null
      }
    }
    let refunded: bigint | null = null
    if (data.refundAmount !== undefined) {
      refunded = applyPartialRefund(next, baseCurrency.parse(data.refundAmount, 'refundAmount', false).minor)
    } else if (data.status === 'refunded' && conversion.status !== 'refunded') {
      refunded = remainingBase(conversion)
    }
    if (refunded !== null) {
      next.refundedBaseValue = conversion.refundedBaseValue + refunded
      next.refundReason = data.reason ?? null
    }
    return { next, refunded }
  }

  function remainingBase(conversion: Conversion): bigint {
    return (conversion.baseValue ?? 0n) - conversion.refundedBaseValue
  }

  /** Reduces the commission pro rata; refunding all that remains makes the conversion refunded. */
  function applyPartialRefund(next: Conversion, refund: bigint): bigint {
    const remaining = remainingBase(next)
    if (next.baseValue === null || remaining <= 0n) {
      throw new ValidationError('refundAmount', (name) => `${name('refundAmount')} needs a conversion with a remaining ${name('baseValue')}`)
    }
    if (refund > remaining) throw new ValidationError('refundAmount', (name) => `${name('refundAmount')} exceeds the remaining ${name('baseValue')}`)
    if (refund === remaining) {
      next.status = 'refunded'
    } else {
      next.value = roundHalfUp(next.value * (remaining - refund), remaining)
    }
    return refund
  }

  /** Saves one conversion's change with its ledger delta and events. */
  async function change(tx: StorageTx, conversion: Conversion, data: ReturnType<typeof parse>, currency: Currency): Promise<Conversion> {
    const { next, refunded } = nextState(conversion, data, currency)
    const { id: _id, projectId: _projectId, createdAt: _createdAt, ...patch } = next
    const saved = (await tx.conversions.update(projectId, conversion.id, patch))!
    const delta = ledgerDelta(conversion, saved)
    await tx.affiliates.adjustTotals(projectId, saved.affiliateId, delta)
    await recordConversionMovement(tx, saved, { before: conversion, after: saved }, delta, ctx.clock.now())
    await recordEvents(tx, saved, refunded, currency)
    return saved
  }

  function statusAndRefund(data: ReturnType<typeof parse>): ReturnType<typeof parse> | null {
    if (data.status === undefined && data.refundAmount === undefined) return null
    return {
      ...(data.status !== undefined ? { status: data.status } : {}),
      ...(data.refundAmount !== undefined ? { refundAmount: data.refundAmount } : {}),
      ...(data.reason !== undefined ? { reason: data.reason } : {}),
    }
  }

  function parse(input: UpdateConversionInput) {
    return validate(updateConversionInput, input)
  }

  async function recordEvents(tx: StorageTx, conversion: Conversion, refunded: bigint | null, currency: Currency) {
    const affiliate = await tx.affiliates.get(projectId, conversion.affiliateId)
    if (!affiliate) return
    const referred = conversion.referredUserId === null ? null : await tx.referrals.get(projectId, conversion.referredUserId)
    const at = ctx.clock.now()
    const events = conversionEvents(conversion, { affiliate, referred, currency, at })
    if (refunded !== null) await tx.outbox.enqueue(events.canceled(refunded, conversion.refundReason ?? ''))
    const base = conversion.baseValue === null ? null : currencyOr(conversion.baseCurrency, currency).amount(conversion.baseValue)
    await tx.outbox.enqueue(events.updated(await usdAmount(ctx, base)))
  }

  return {
    async get(id: number): Promise<ConversionView> {
      const { settings } = await ctx.project()
      const conversion = await storage.transaction((tx) => find(tx, id))
      return conversionView(conversion, new Currency(settings.currency), ctx.clock.now())
    },

    async update(id: number, input: UpdateConversionInput, options: UpdateConversionOptions = {}): Promise<ConversionView> {
      const { decide } = options
      // Without `decide` the input is checked before the transaction starts.
      const given = decide ? null : parse(input)
      const { settings } = await ctx.project()
      const currency = new Currency(settings.currency)
      const updated = await withConflicts(() =>
        storage.transaction(async (tx) => {
          const conversion = await findForChange(tx, id)
          const wanted = decide ? await decide(conversionView(conversion, currency, ctx.clock.now()), tx) : input
          if (wanted === null) return conversion
          const data = given ?? parse(wanted)
          const saved = await change(tx, conversion, data, currency)
          // A multi-tier parent's share follows the status changes and refunds of its source.
          const cascade = statusAndRefund(data)
          if (!cascade) return saved
          for (const child of await tx.conversions.all(projectId, { parentConversionId: saved.id })) {
            const current = await findForChange(tx, child.id)
            if (!TERMINAL.has(current.status)) await change(tx, current, cascade, currency)
          }
          return saved
        }),
      )
      return conversionView(updated, currency, ctx.clock.now())
    },

    /** Deletes the conversion; paid money it held returns to the affiliate's credit. */
    async delete(id: number): Promise<void> {
      await storage.transaction(async (tx) => {
        const conversion = await findForChange(tx, id)
        await tx.conversions.delete(projectId, id)
        const delta = ledgerDelta(conversion, null)
        await tx.affiliates.adjustTotals(projectId, conversion.affiliateId, delta)
        await recordConversionMovement(tx, conversion, { before: conversion, after: null }, delta, ctx.clock.now())
      })
    },

    async list(input: ListConversionsInput = {}): Promise<{ items: ConversionView[]; total: number; limit: number; offset: number }> {
      const data = validate(listConversionsInput, input)
      const window = listWindow(data, 50, 100)
      const { settings } = await ctx.project()
      const { limit: _limit, offset: _offset, ...filters } = data
      const page = await storage.conversions.list(projectId, { ...filters, ...window })
      const now = ctx.clock.now()
      const currency = new Currency(settings.currency)
      return { items: page.items.map((row) => conversionView(row, currency, now)), total: page.total, ...window }
    },
  }
}
