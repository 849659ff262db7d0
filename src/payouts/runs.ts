// Payout runs through the configured providers (docs/payouts.md "Payout runs"): the senders a
// run uses, a runner for the API, console and CLI, and the schedule. The schedule runs once per
// period across processes: a claim under `payout run <period>` in the keyed-state store (shared
// by every process of a SQL database), leased while it runs, so a process that dies mid-batch
// leaves it to the next one, and settled when it completes, so nobody runs that period again.
import type { KeyClaim, KeyedStateStore } from '../core/ports/keyed-state.js'
import type { PayoutRunResult, PayoutSender } from '../core/payouts/payout-runs.js'
import type { AffiliateProgram } from '../core/program.js'
import type { PayPalClient } from './paypal/client.js'
import { payPalPayouts } from './paypal/payouts.js'
import { stripeTransfers, type StripeTransfersOptions } from './stripe/transfers.js'

export interface PayoutProviders {
  /** PayPal Payouts: a payPalClient(). */
  paypal?: PayPalClient | null
  /** Stripe Connect transfers. */
  stripe?: StripeTransfersOptions | null
}

/** The senders of the providers given, for program.payoutRuns.run({ senders }). */
export function payoutSenders(program: AffiliateProgram, providers: PayoutProviders): PayoutSender[] {
  return [...(providers.paypal ? [payPalPayouts(program, providers.paypal)] : []), ...(providers.stripe ? [stripeTransfers(program, providers.stripe)] : [])]
}

export interface PayoutRunner {
  /** Runs (or, dry, plans) a payout run of the program's project now. */
  run(input?: { dryRun?: boolean; period?: string }): Promise<PayoutRunResult>
}

export function payoutRunner(program: AffiliateProgram, providers: PayoutProviders): PayoutRunner {
  const senders = payoutSenders(program, providers)
  return { run: (input = {}) => program.payoutRuns.run({ ...input, senders }) }
}

/** How long a scheduled run's claim lasts without renewal: a process that died frees it after this. */
export const SCHEDULE_LEASE_MS = 60_000
/** A completed period's claim is kept beyond the longest month. */
const PERIOD_CLAIM_MS = 62 * 86_400_000
const FINGERPRINT = 'scheduled payout run'

/** The keyed-state key of a period's scheduled run; its space keeps it apart from every Idempotency-Key (visible ASCII only). */
export const scheduleKey = (period: string) => `payout run ${period}`

export interface ScheduledRunOutcome {
  /** `ran`; `done` (this period's run completed before); `running` (another process holds it); `waiting` (the schedule's day has not come). */
  status: 'ran' | 'done' | 'running' | 'waiting'
  period: string
  result?: PayoutRunResult
}

/**
 * Runs this period's scheduled payout run when its day has come and no process ran it yet. Safe
 * to call from every process as often as wanted: one of them runs the period; a failure releases
 * the claim for the next call; a crash lets the lease run out.
 */
export async function runScheduled(program: AffiliateProgram, state: KeyedStateStore, runner: PayoutRunner, now: () => Date = () => new Date()): Promise<ScheduledRunOutcome> {
  const { period, due } = await program.payoutRuns.schedule()
  if (!due) return { status: 'waiting', period }
  const key = scheduleKey(period)
  const claimedAt = now()
  const claim: KeyClaim = {
    projectId: program.projectId,
    key,
    fingerprint: FINGERPRINT,
    response: null,
    createdAt: claimedAt,
    leaseUntil: new Date(claimedAt.getTime() + SCHEDULE_LEASE_MS),
    expiresAt: new Date(claimedAt.getTime() + PERIOD_CLAIM_MS),
  }
  const standing = await state.claim(claim)
  if (standing) return { status: standing.response ? 'done' : 'running', period }
  const started = Date.now()
  const renew = setInterval(() => {
    state.renew(program.projectId, key, claimedAt, new Date(claimedAt.getTime() + (Date.now() - started) + SCHEDULE_LEASE_MS)).catch(() => {})
  }, SCHEDULE_LEASE_MS / 3)
  renew.unref?.()
  try {
    const result = await runner.run({ period })
    clearInterval(renew)
    await state.settle(program.projectId, key, claimedAt, { status: 200, body: JSON.stringify(result.counts) })
    return { status: 'ran', period, result }
  } catch (error) {
    clearInterval(renew)
    await state.release(program.projectId, key, claimedAt).catch(() => {})
    throw error
  }
}
