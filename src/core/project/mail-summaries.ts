// The monthly summary mails (docs/email.md "Monthly summary"): for each active affiliate who has
// not turned them off and whose ledger moved in the month by this program (imported history is
// not news), the commission earned, conversions and money paid in the month and the unpaid
// balance at its end, all read from the ledger (GET /ledger, GET /affiliates/{email}/balances),
// queued once per affiliate and month (a dedupe key), so several processes or a second run queue
// nothing twice.
import type { affiliatesService } from '../affiliates/affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { ValidationError } from '../model/errors.js'
import { IMPORTED_REFERENCE_PREFIX } from '../model/mail-kinds.js'
import { movementAmount } from '../rules/ledger-movements.js'
import type { LedgerMovement } from '../model/types.js'

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

/** The month before the one `at` falls in, in the time zone's calendar: YYYY-MM. */
export function previousMonth(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`
}

function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`
}

type Services = { affiliates: Pick<ReturnType<typeof affiliatesService>, 'list'> }

/** Queues the summaries of `month` (default: the last complete month); resolves with how many were queued. */
export async function queueMonthlySummaries(ctx: ProjectContext, services: Services, input: { month?: string } = {}): Promise<number> {
  const now = ctx.clock.now()
  const project = await ctx.project()
  const today = ctx.dayIn(project, now)
  const month = input.month ?? previousMonth(today)
  if (!MONTH.test(month)) throw new ValidationError('month', 'must be a month written YYYY-MM')
  if (`${month}-01` >= `${today.slice(0, 7)}-01`) throw new ValidationError('month', 'must be a month that has ended')
  const from = `${month}-01`
  const to = `${nextMonth(month)}-01`
  const imported = new Map<number, { imported: boolean; purchase: boolean }>()
  /** Whether a conversion is imported history (its reference `import:...`), and a purchase; a deleted one is neither imported nor known. */
  const conversionOf = async (id: number) => {
    let known = imported.get(id)
    if (!known) {
      const conversion = await ctx.storage.conversions.get(ctx.projectId, id)
      known = { imported: conversion?.reference?.startsWith(IMPORTED_REFERENCE_PREFIX) ?? false, purchase: (conversion?.type ?? 'purchase') === 'purchase' }
      imported.set(id, known)
    }
    return known
  }
  let queued = 0
  for (let offset = 0; ; offset += 100) {
    const page = await services.affiliates.list({ status: 'active', limit: 100, offset })
    for (const affiliate of page.items) {
      if (affiliate.emailOptOut?.includes('summary')) continue
      const movements = await ctx.storage.ledger.all(ctx.projectId, { affiliateId: affiliate.id, upTo: now })
      const summary = await monthOf(movements, (at) => ctx.dayIn(project, at), { from, to }, conversionOf)
      if (summary === null) continue
      const { earned, conversions, paid, balance } = summary
      const inserted = await ctx.storage.mail.insert({
        projectId: ctx.projectId,
        kind: 'monthly_summary',
        affiliateId: affiliate.id,
        recipient: affiliate.email,
        payload: {
          affiliate: { id: String(affiliate.id), email: affiliate.email },
          summary: { month, earned_minor: String(earned), conversions, paid_minor: String(paid), balance_minor: String(balance) },
        },
        dedupeKey: `monthly_summary:${affiliate.id}:${month}`,
        sendAt: now,
        createdAt: now,
      })
      if (inserted) queued++
    }
    if (offset + page.items.length >= page.total || page.items.length === 0) break
  }
  return queued
}

/**
 * The month's figures from an affiliate's ledger: earned is the counted value its movements added
 * in the month, paid what they moved to paid (payouts, conversions marked paid; a clawback moves
 * none), conversions the purchases whose counted value grew in the month, and the balance what was
 * unpaid at the month's end (every movement before it, imported ones too). Movements of imported
 * commissions do not count as the month's; null when no other movement fell in the month.
 */
async function monthOf(
  movements: readonly LedgerMovement[],
  dayOf: (at: Date) => string,
  month: { from: string; to: string },
  conversionOf: (id: number) => Promise<{ imported: boolean; purchase: boolean }>,
): Promise<{ earned: bigint; conversions: number; paid: bigint; balance: bigint } | null> {
  let earned = 0n
  let paid = 0n
  let balance = 0n
  let moved = false
  const counted = new Map<number, bigint>()
  for (const movement of movements) {
    const day = dayOf(movement.createdAt)
    if (day >= month.to) continue
    balance += movementAmount(movement)
    if (day < month.from) continue
    const conversion = movement.conversionId === null ? null : await conversionOf(movement.conversionId)
    if (conversion?.imported) continue
    moved = true
    earned += movement.countedValue
    paid += movement.paidValue + movement.credit
    if (conversion?.purchase) counted.set(movement.conversionId!, (counted.get(movement.conversionId!) ?? 0n) + movement.countedValue)
  }
  if (!moved) return null
  const conversions = [...counted.values()].filter((value) => value > 0n).length
  return { earned, conversions, paid, balance }
}
