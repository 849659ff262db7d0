// Milestone bonuses (docs/commissions.md "Bonuses"): a conversion of type `bonus` once the
// affiliate's customers or revenue in a period reach a milestone. Its reference,
// `bonus:<affiliate id>:<name>:<period start>`, is unique in the project: concurrent conversions
// crossing the milestone insert it once (the others' inserts do nothing).
import { addDays } from '../model/clock.js'
import { periodOf, type DayRange, type PeriodFigures } from './commission-periods.js'
import { newConversion } from '../model/entities.js'
import { conversionEvents } from '../ports/events.js'
import { ledgerDelta } from './ledger.js'
import type { Currency } from '../model/money.js'
import { reachesMilestone } from './performance-tiers.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate, CommissionSettings, Conversion, RuleSource } from '../model/types.js'

export interface BonusContext {
  currency: Currency
  holdPeriodDays: number
  /** The day (project time zone) whose periods count. */
  day: string
  at: Date
  /** When the bonus is recorded (the ledger's movement time; `at` may be a payment's earlier time). */
  recordedAt: Date
  source: RuleSource
  /** Reached through imported history: its events go to webhooks, not to the affiliate's mail. */
  quiet?: boolean
}

/** The period of each bonus that holds `day`, in the settings' order. */
export function bonusRanges(commission: CommissionSettings, day: string): DayRange[] {
  return (commission.bonuses ?? []).map((bonus) => periodOf(bonus.period, day))
}

/**
 * Pays the bonuses the affiliate's figures reach and it was not paid yet in their period; the
 * conversions created. `ranges` are `bonusRanges` of `context.day`, `figures` the affiliate's in
 * each, with the conversion's day as its write left it.
 */
export async function payBonuses(
  tx: StorageTx,
  affiliate: Affiliate,
  commission: CommissionSettings,
  { ranges, figures }: { ranges: readonly DayRange[]; figures: readonly PeriodFigures[] },
  context: BonusContext,
): Promise<Conversion[]> {
  const bonuses = commission.bonuses
  if (!bonuses || bonuses.length === 0) return []
  const paid: Conversion[] = []
  for (const [index, bonus] of bonuses.entries()) {
    if (!reachesMilestone(bonus, figures[index]!, context.currency)) continue
    const value = context.currency.parse(bonus.amount, 'amount')
    const row = newConversion<Omit<Conversion, 'id'>>({
      projectId: affiliate.projectId,
      affiliateId: affiliate.id,
      type: 'bonus',
      value: value.minor,
      refundedBaseValue: 0n,
      paid: false,
      status: affiliate.status === 'active' ? 'active' : 'review',
      holdUntil: addDays(context.at, context.holdPeriodDays),
      reference: `bonus:${affiliate.id}:${bonus.name}:${ranges[index]!.from}`,
      basis: 'bonus',
      commissionType: 'fixed',
      tier: 1,
      ruleSource: context.source,
      commissionAmount: value.format(),
      reviewReason: affiliate.status === 'active' ? null : `affiliate is ${affiliate.status}`,
      createdAt: context.at,
    })
    const result = await tx.conversions.insert(row, {
      totals: ledgerDelta(null, row),
      day: context.day,
      daily: row.status === 'active' ? { commission: row.value } : {},
      ledgerAt: context.recordedAt,
    })
    if (!result.inserted) continue
    const events = conversionEvents(result.conversion, { affiliate, referred: null, currency: context.currency, at: context.at })
    const quiet = context.quiet ? { quiet: true } : {}
    await tx.outbox.enqueue({ ...events.converted(), ...quiet })
    await tx.outbox.enqueue({ ...events.updated(null), ...quiet })
    paid.push(result.conversion)
  }
  return paid
}
