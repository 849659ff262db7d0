// Payout runs (docs/payouts.md "Payout runs"): every due affiliate paid through PayPal Payouts or
// Stripe Connect in one go, from the API, the console, the CLI or the schedule. A run belongs to a
// period (the month, YYYY-MM, in the project's time zone): an affiliate gets at most one run payout
// per period (providerPayouts.startRun), and the provider's idempotency key is derived from the
// affiliate and the period, so runs, processes and a crash mid-batch meeting pay each one once.
// The senders (src/payouts/) are handed in: the core knows no provider's API.
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, ValidationError } from '../model/errors.js'
import { Currency } from '../model/money.js'
import type { payoutsDueService } from './payouts-due.js'
import type { providerPayoutsService, ProviderPayoutWithPayout } from './provider-payouts.js'
import type { Affiliate, ProviderPayoutProvider } from '../model/types.js'

/** Sends a payout recorded as processing, or sends it again under the same key; resolves with where it stands. */
export interface PayoutSender {
  provider: ProviderPayoutProvider
  send(sent: ProviderPayoutWithPayout): Promise<ProviderPayoutWithPayout>
}

/** What a run did (or, dry, would do) for one affiliate. */
export interface PayoutRunItem {
  affiliateId: number
  affiliateEmail: string
  /** Decimal text in the program's currency. */
  amount: string
  currency: string
  provider: ProviderPayoutProvider | null
  /**
   * `would_send` (dry run); `paid`, `processing` (sent, the provider has not said yet, or will be
   * sent again by the next run or sync), `failed`: the payout's state after this run; `skipped`: not sent (see `reason`).
   */
  outcome: 'would_send' | 'paid' | 'processing' | 'failed' | 'skipped'
  payoutId: number | null
  /** True for a payout an earlier run of the period made and this one sent again (a crash, a provider error). */
  resumed: boolean
  /** Why it was skipped, or the provider's last reply. */
  reason: string | null
}

export interface PayoutRunResult {
  period: string
  dryRun: boolean
  items: PayoutRunItem[]
  counts: { paid: number; processing: number; failed: number; skipped: number; wouldSend: number }
}

export interface PayoutRunInput {
  /** The senders of the providers configured (payoutSenders() from affiliate-kit/payouts). */
  senders: readonly PayoutSender[]
  /** Answers the batch it would send and sends nothing. @default false */
  dryRun?: boolean
  /** The month (YYYY-MM) it pays for. @default this month in the project's time zone */
  period?: string
}

export const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/

/** How an affiliate is paid: its Stripe connected account, else its PayPal email; null when neither is usable. */
function methodOf(affiliate: Affiliate, usable: ReadonlyMap<ProviderPayoutProvider, PayoutSender>): { provider: ProviderPayoutProvider; destination: string | null } | string {
  if (affiliate.stripeAccountId && usable.has('stripe')) return { provider: 'stripe', destination: affiliate.stripeAccountId }
  if (affiliate.paypalEmail && usable.has('paypal')) return { provider: 'paypal', destination: null }
  const offered = [...usable.keys()]
  if (offered.length === 0) return 'no automatic payout method is on and configured (payouts.automatic, payoutProviders)'
  return `no ${offered.map((provider) => (provider === 'stripe' ? 'Stripe connected account' : 'PayPal email')).join(' or ')} on file`
}

export function payoutRunsService(
  ctx: ProjectContext,
  services: { due: ReturnType<typeof payoutsDueService>['due']; providerPayouts: ReturnType<typeof providerPayoutsService> },
) {
  const { storage, projectId } = ctx
  const { providerPayouts } = services

  /** Sends one payout, keeping a provider's failure on the payout (it stays processing) instead of ending the run. */
  async function send(sender: PayoutSender, sent: ProviderPayoutWithPayout): Promise<ProviderPayoutWithPayout> {
    try {
      return await sender.send(sent)
    } catch (error) {
      const reply = error instanceof Error ? error.message : String(error)
      return providerPayouts.note(sent.payoutId, { reply })
    }
  }

  return {
    /**
     * The period (YYYY-MM) a run started now belongs to, and whether the schedule's day of this
     * month (payouts.schedule.day, default 1, in the project's time zone) has come.
     */
    async schedule(): Promise<{ period: string; due: boolean; day: number }> {
      const project = await ctx.project()
      const today = ctx.dayIn(project, ctx.clock.now())
      const day = project.settings.payouts?.schedule?.day ?? 1
      return { period: today.slice(0, 7), due: Number(today.slice(8, 10)) >= day, day }
    },

    /**
     * Pays every due affiliate through its method (its Stripe connected account, else its PayPal
     * email), and sends again the payouts an earlier run of the period left processing without the
     * provider's answer. A dry run answers the same list and writes nothing.
     */
    async run(input: PayoutRunInput): Promise<PayoutRunResult> {
      const project = await ctx.project()
      if (input.period !== undefined && !PERIOD.test(input.period)) throw new ValidationError('period', 'must be a month as YYYY-MM')
      const period = input.period ?? ctx.dayIn(project, ctx.clock.now()).slice(0, 7)
      const currency = new Currency(project.settings.currency)
      const usable = new Map(input.senders.filter((sender) => project.settings.payouts?.automatic?.[sender.provider] === true).map((sender) => [sender.provider, sender]))
      if (usable.size === 0) {
        throw new ConflictError('no automatic payout method is on and configured: turn on payouts.automatic.paypal or .stripe and configure its provider (payoutProviders)', 'provider')
      }
      const dryRun = input.dryRun === true
      const items: PayoutRunItem[] = []
      const format = (minor: bigint) => currency.amount(minor).format()
      const itemOf = (sent: ProviderPayoutWithPayout, resumed: boolean): PayoutRunItem => ({
        affiliateId: sent.affiliateId,
        affiliateEmail: sent.payout.affiliateEmail,
        amount: format(sent.payout.amount),
        currency: sent.payout.currency,
        provider: sent.provider,
        outcome: sent.state,
        payoutId: sent.payoutId,
        resumed,
        reason: sent.reply,
      })

      // What an earlier run of this period left processing with no answer (a crash, a provider
      // error): sent again under the same key, so the provider finds it instead of paying twice.
      const earlier = await providerPayouts.listRun(period)
      for (const sent of earlier) {
        const waiting = sent.state === 'processing' && (sent.reference === null || sent.provider === 'stripe')
        const sender = usable.get(sent.provider)
        if (!waiting || !sender) continue
        items.push(itemOf(dryRun ? sent : await send(sender, sent), true))
      }

      const paidThisPeriod = new Set(earlier.map((sent) => sent.affiliateId))
      for (const entry of await services.due()) {
        if (paidThisPeriod.has(entry.affiliateId)) continue
        const base = { affiliateId: entry.affiliateId, affiliateEmail: entry.affiliateEmail, amount: entry.amount, currency: entry.currency, payoutId: null, resumed: false }
        const affiliate = await storage.affiliates.get(projectId, entry.affiliateId)
        if (!affiliate) continue
        const method = methodOf(affiliate, usable)
        if (typeof method === 'string') {
          items.push({ ...base, provider: null, outcome: 'skipped', reason: method })
          continue
        }
        if (dryRun) {
          items.push({ ...base, provider: method.provider, outcome: 'would_send', reason: null })
          continue
        }
        const started = await providerPayouts.startRun({ affiliateId: affiliate.id, provider: method.provider, destination: method.destination, period })
        if ('skipped' in started) {
          items.push({ ...base, provider: method.provider, outcome: 'skipped', reason: started.skipped })
          continue
        }
        // Another run made it meanwhile: it sends it (or the next run does, as above).
        if (!started.created) {
          items.push({ ...itemOf(started.sent, false), outcome: 'skipped', reason: `paid by another run of ${period} (payout ${started.sent.payoutId}, ${started.sent.state})` })
          continue
        }
        items.push(itemOf(await send(usable.get(method.provider)!, started.sent), false))
      }

      const count = (outcome: PayoutRunItem['outcome']) => items.filter((item) => item.outcome === outcome).length
      return {
        period,
        dryRun,
        items,
        counts: { paid: count('paid'), processing: count('processing'), failed: count('failed'), skipped: count('skipped'), wouldSend: count('would_send') },
      }
    },
  }
}
