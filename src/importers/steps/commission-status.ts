// The status an imported commission's conversion ends in: what each commission state becomes in
// the ledger (docs/migrating.md), the changes that bring it there, the status a dry run says it
// would end in, and the warning when the project's hold period makes it another than the tool's.
import { ConflictError } from '../../core/model/errors.js'
import type { ConversionView } from '../../core/rules/views.js'
import type { SourceCommission, SourceCommissionState } from '../source.js'
import { now, type ImportRun } from './import-run.js'

/** What each commission state becomes in the ledger (docs/migrating.md). */
const LEDGER_STATUS: Record<SourceCommissionState, 'pending' | 'active' | 'rejected'> = {
  pending: 'pending',
  due: 'active',
  paid: 'active',
  voided: 'rejected',
}

/**
 * Brings the conversion to the state the commission has: create makes it earning (or `review`, for
 * an affiliate that is not active or a self-referral); voided ones are then rejected and earning
 * ones approved. A run stopped between the two steps finishes it on the next run.
 */
export async function settleStatus(run: ImportRun, record: SourceCommission, conversion: ConversionView): Promise<void> {
  const wanted = LEDGER_STATUS[record.state]
  let status = conversion.status
  if (wanted === 'rejected' && status !== 'rejected') status = await changeStatus(run, conversion.id, 'rejected')
  if (wanted !== 'rejected' && status === 'review') status = await changeStatus(run, conversion.id, 'active')
  warnStatus(run, record, status)
}

/** Changes a conversion's status; when another run made it final first, its status as it is now. */
async function changeStatus({ program }: ImportRun, id: number, status: 'active' | 'rejected') {
  try {
    return (await program.conversions.update(id, { status })).status
  } catch (error) {
    if (error instanceof ConflictError) return (await program.conversions.get(id)).status
    throw error
  }
}

/** The status settleStatus would leave: rejected for voided ones, else by the hold period as create sets it. */
export function dryRunStatus(run: ImportRun, record: SourceCommission, existing: ConversionView | undefined): string {
  if (LEDGER_STATUS[record.state] === 'rejected') return 'rejected'
  if (existing && existing.status !== 'review') return existing.status
  const at = now(run)
  const occurred = record.occurredAt.getTime() < at.getTime() ? record.occurredAt : at
  const holdUntil = existing?.holdUntil ?? new Date(occurred.getTime() + run.settings.holdPeriodDays * 86_400_000)
  return holdUntil.getTime() > at.getTime() ? 'pending' : 'active'
}

/** Warns when the conversion's status here is not the one the tool's state stands for. */
export function warnStatus({ report, settings }: ImportRun, record: SourceCommission, status: string): void {
  const wanted = LEDGER_STATUS[record.state]
  if (status === wanted) return
  const why = wanted === 'pending' ? `its hold ends before the tool's (holdPeriodDays ${settings.holdPeriodDays})` : `the project's hold period (${settings.holdPeriodDays} days) has not ended`
  report.warn('commissions', record.sourceId, 'status', `${record.state} in the tool, ${status} here: ${why}`)
}
