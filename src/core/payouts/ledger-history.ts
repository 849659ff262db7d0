// The ledger as of a date (docs/payouts.md "The ledger as of a date"): an affiliate's balances as
// they stood at a moment, from its movements recorded up to then, and a period's movements, such
// that unpaid as of `from` plus the period's amounts is unpaid as of `to`.
import * as v from 'valibot'
import { findAffiliate, type AffiliateRef } from '../affiliates/affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { NotFoundError, ValidationError } from '../model/errors.js'
import { balancesAsOf, movementAmount } from '../rules/ledger-movements.js'
import { Currency } from '../model/money.js'
import { payoutTerms } from '../rules/payout-terms.js'
import { asOfInput, validate } from '../model/schemas.js'
import type { LedgerMovement, LedgerMovementType } from '../model/types.js'
import { affiliateView, type AffiliateView } from '../rules/views.js'

/** The longest period one export may cover. */
export const MAX_LEDGER_DAYS = 3660

export const ledgerInput = v.strictObject({ from: asOfInput, to: asOfInput })
export type LedgerInput = v.InferInput<typeof ledgerInput>

/** An affiliate's balances at a moment, as decimal text. */
export interface BalancesView {
  asOf: Date
  currency: string
  /** Commissions earned (counted). */
  total: string
  held: string
  eligible: string
  payable: string
  paid: string
  credit: string
  unpaid: string
}

/** One affiliate's balances in the program's balances at a moment. */
export interface AffiliateBalancesView extends BalancesView {
  affiliateId: number
  affiliateEmail: string
}

/** What the program owed at a moment: every affiliate that existed then, and the sums. */
export interface ProgramBalancesView {
  totals: BalancesView
  affiliates: AffiliateBalancesView[]
}

export interface LedgerEntry {
  /** When the movement was recorded. */
  at: Date
  affiliateId: number
  type: LedgerMovementType
  /** Signed: positive when it raises what the program owes the affiliate. */
  amount: string
  currency: string
  conversionId: number | null
  payoutId: number | null
}

/** An instant given to the program directly (a Date or RFC 3339 text), checked. */
function instantOf(value: Date | string, field: string): Date {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ValidationError(field, 'must be a real date-time')
    return value
  }
  return validate(asOfInput, value, field)
}

export function ledgerHistoryService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function movementsAsOf(ref: AffiliateRef, at: Date) {
    const project = await ctx.project()
    const { affiliate, movements } = await storage.transaction(async (tx) => {
      const affiliate = await findAffiliate(tx, projectId, ref)
      if (affiliate.createdAt.getTime() > at.getTime()) throw new NotFoundError('affiliate not found: it did not exist yet')
      return { affiliate, movements: await tx.ledger.all(projectId, { affiliateId: affiliate.id, upTo: at }) }
    })
    const balances = balancesAsOf(movements, at, payoutTerms(project.settings.payouts, (day) => ctx.dayIn(project, day)))
    return { project, affiliate, balances }
  }

  return {
    /** The affiliate's balances as they stood at `asOf` (default: now); 404 when it did not exist yet. */
    async balances(ref: AffiliateRef, asOf?: Date | string): Promise<BalancesView> {
      const at = asOf === undefined ? ctx.clock.now() : instantOf(asOf, 'asOf')
      const { project, balances } = await movementsAsOf(ref, at)
      return balancesView(balances, at, new Currency(project.settings.currency))
    },

    /** Every affiliate's balances as they stood at `asOf` (default: now; those that existed then), by id, and their sums. */
    async programBalances(asOf?: Date | string): Promise<ProgramBalancesView> {
      const at = asOf === undefined ? ctx.clock.now() : instantOf(asOf, 'asOf')
      const project = await ctx.project()
      const currency = new Currency(project.settings.currency)
      const terms = payoutTerms(project.settings.payouts, (day) => ctx.dayIn(project, day))
      const { movements, affiliates } = await storage.transaction(async (tx) => {
        const movements = await tx.ledger.all(projectId, { upTo: at })
        const ids = [...new Set(movements.map((movement) => movement.affiliateId))].sort((a, b) => a - b)
        const affiliates = []
        for (const id of ids) {
          const affiliate = await tx.affiliates.get(projectId, id)
          if (affiliate && affiliate.createdAt.getTime() <= at.getTime()) affiliates.push(affiliate)
        }
        return { movements, affiliates }
      })
      const sums = { total: 0n, held: 0n, eligible: 0n, payable: 0n, paid: 0n, credit: 0n, unpaid: 0n }
      const byAffiliate = new Map<number, LedgerMovement[]>()
      for (const movement of movements) byAffiliate.set(movement.affiliateId, [...(byAffiliate.get(movement.affiliateId) ?? []), movement])
      const rows = affiliates.map((affiliate) => {
        const balances = balancesAsOf(byAffiliate.get(affiliate.id)!, at, terms)
        for (const key of Object.keys(sums) as Array<keyof typeof sums>) sums[key] += balances[key]
        return { affiliateId: affiliate.id, affiliateEmail: affiliate.email, ...balancesView(balances, at, currency) }
      })
      return { totals: balancesView(sums, at, currency), affiliates: rows }
    },

    /** The affiliate record with its balances as they stood at `asOf` (its other fields as they are now). */
    async affiliate(ref: AffiliateRef, asOf: Date | string): Promise<AffiliateView> {
      const at = instantOf(asOf, 'asOf')
      const { project, affiliate, balances } = await movementsAsOf(ref, at)
      return affiliateView({ ...affiliate, totals: { ...affiliate.totals, ...balances.totals } }, balances.unpaidHeld, project.settings)
    },

    /** Every movement recorded after `from` and at or before `to`, oldest first. */
    async movements(input: LedgerInput): Promise<LedgerEntry[]> {
      const { from, to } = validate(ledgerInput, input)
      if (to.getTime() < from.getTime()) throw new ValidationError('to', (name) => `${name('to')}: must not be before ${name('from')}`)
      if (to.getTime() - from.getTime() > MAX_LEDGER_DAYS * 86_400_000) {
        throw new ValidationError('from', (name) => `${name('from')}: the period may cover at most ${MAX_LEDGER_DAYS} days`)
      }
      const currency = new Currency((await ctx.project()).settings.currency)
      const [movements, releasing] = await Promise.all([storage.ledger.all(projectId, { after: from, upTo: to }), storage.ledger.releasing(projectId, { after: from, upTo: to })])
      const entries: LedgerEntry[] = movements.map((movement) => ({
        at: movement.createdAt,
        affiliateId: movement.affiliateId,
        type: movement.type,
        amount: currency.amount(movementAmount(movement)).format(),
        currency: currency.code,
        conversionId: movement.conversionId,
        payoutId: movement.payoutId,
      }))
      const zero = currency.amount(0n).format()
      for (const release of releases(releasing)) {
        entries.push({ at: release.holdUntil, affiliateId: release.affiliateId, type: 'release', amount: zero, currency: currency.code, conversionId: release.conversionId, payoutId: null })
      }
      // Oldest first; at one instant a release comes after what was recorded then.
      return entries.sort((a, b) => a.at.getTime() - b.at.getTime() || Number(a.type === 'release') - Number(b.type === 'release'))
    },
  }
}

/** The conversions whose hold ended with unpaid money: their movements up to then leave some unpaid. */
function releases(movements: readonly LedgerMovement[]): Array<{ conversionId: number; affiliateId: number; holdUntil: Date }> {
  const unpaid = new Map<number, { conversionId: number; affiliateId: number; holdUntil: Date; amount: bigint }>()
  for (const movement of movements) {
    const entry = unpaid.get(movement.conversionId!) ?? { conversionId: movement.conversionId!, affiliateId: movement.affiliateId, holdUntil: movement.holdUntil!, amount: 0n }
    entry.amount += movement.countedValue - movement.paidValue
    unpaid.set(movement.conversionId!, entry)
  }
  return [...unpaid.values()].filter((entry) => entry.amount > 0n)
}

function balancesView(balances: Record<'total' | 'held' | 'eligible' | 'payable' | 'paid' | 'credit' | 'unpaid', bigint>, at: Date, currency: Currency): BalancesView {
  const money = (minor: bigint) => currency.amount(minor).format()
  return {
    asOf: at,
    currency: currency.code,
    total: money(balances.total),
    held: money(balances.held),
    eligible: money(balances.eligible),
    payable: money(balances.payable),
    paid: money(balances.paid),
    credit: money(balances.credit),
    unpaid: money(balances.unpaid),
  }
}
