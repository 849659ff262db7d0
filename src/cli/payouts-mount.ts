// The standalone server's automatic payouts (docs/payouts.md "Running it"): with `payoutProviders`
// in the config, every processing PayPal and Stripe payout is synced on a schedule (a batch never
// recorded is sent again with its sender_batch_id, a batch's status read, a Stripe transfer
// replayed with its Idempotency-Key), PayPal's item webhooks are answered at
// /api/v1/payouts/paypal/webhooks when the config names the webhook, payout runs are served to
// the API, the console and `payouts run`, and the period's scheduled run is started on the
// schedule's day (payouts.schedule.day; once per period across processes).
import type { AffiliateProgram } from '../core/program.js'
import { errorText, type Logger } from '../ops/logger.js'
import { payPalClient } from '../payouts/paypal/client.js'
import { payPalPayouts } from '../payouts/paypal/payouts.js'
import { payPalWebhookHandler } from '../payouts/paypal/webhooks.js'
import { payoutRunner, runScheduled, type PayoutRunner } from '../payouts/runs.js'
import { stripeTransfers } from '../payouts/stripe/transfers.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import type { PayoutRunResult } from '../core/payouts/payout-runs.js'
import { ConflictError } from '../core/model/errors.js'
import type { NodeHandler } from '../server/node.js'
import type { ServerConfig } from './config.js'
import type { RequestObserver } from '../server/observe.js'

export const PAYPAL_WEBHOOK_PATH = '/api/v1/payouts/paypal/webhooks'
const DEFAULT_INTERVAL_SECONDS = 300

type PayoutProvidersConfig = NonNullable<ServerConfig['payoutProviders']>

export interface PayoutSync {
  /** Runs one sync of every configured provider now (the schedule runs it too); resolves with the counts. */
  run(): Promise<{ paid: number; failed: number; processing: number }>
  /** The PayPal webhook listener, when configured. */
  paypalWebhooks: NodeHandler | null
  /** Payout runs for the API (createHandler's payoutRuns), the console and `payouts run`; each run is logged. */
  runs: { run(projectId: string, input: { dryRun: boolean; trigger: string }): Promise<PayoutRunResult> }
  stop(): Promise<void>
}

/** Logs what a run did: one line, and one per affiliate that was not paid at once. */
export function logRun(logger: Logger, result: PayoutRunResult, trigger: string): void {
  const { counts } = result
  if (result.dryRun) return
  logger.info(`payout run ${result.period} (${trigger}): ${counts.paid} paid, ${counts.processing} processing, ${counts.failed} failed, ${counts.skipped} skipped`, { period: result.period, trigger, ...counts })
  for (const item of result.items) {
    if (item.outcome === 'paid') continue
    logger.warn(`payout run ${result.period}: ${item.affiliateEmail} ${item.outcome}${item.reason ? `: ${item.reason}` : ''}`, { affiliateId: item.affiliateId, outcome: item.outcome, payoutId: item.payoutId })
  }
}

export function payoutSync(program: AffiliateProgram, config: PayoutProvidersConfig, logger: Logger, state?: KeyedStateStore, observer: RequestObserver = {}): PayoutSync {
  const paypalClient = config.paypal ? payPalClient({ baseUrl: config.paypal.baseUrl ?? 'https://api-m.paypal.com', clientId: config.paypal.clientId, clientSecret: config.paypal.clientSecret }) : null
  const runners = [
    ...(paypalClient ? [{ name: 'PayPal', sync: payPalPayouts(program, paypalClient).sync }] : []),
    ...(config.stripe ? [{ name: 'Stripe', sync: stripeTransfers(program, { secretKey: config.stripe.secretKey, ...(config.stripe.baseUrl ? { baseUrl: config.stripe.baseUrl } : {}) }).sync }] : []),
  ]
  let running: Promise<{ paid: number; failed: number; processing: number }> | null = null
  const runner: PayoutRunner = payoutRunner(program, {
    paypal: paypalClient,
    stripe: config.stripe ? { secretKey: config.stripe.secretKey, ...(config.stripe.baseUrl ? { baseUrl: config.stripe.baseUrl } : {}) } : null,
  })
  const scheduled = state !== undefined && config.scheduledRuns !== false

  /** This period's scheduled run, when its day has come and no process ran it yet. */
  async function schedule() {
    try {
      const outcome = await runScheduled(program, state!, runner)
      if (outcome.result) logRun(logger, outcome.result, 'schedule')
    } catch (error) {
      logger.error('payout run (schedule) failed; the next tick tries again', { error: errorText(error) })
    }
  }

  async function once() {
    const counts = { paid: 0, failed: 0, processing: 0 }
    for (const runner of runners) {
      try {
        for (const sent of await runner.sync()) counts[sent.state] += 1
      } catch (error) {
        // The next run tries again: a payout stays processing, its amount held, until its provider answers.
        logger.error(`payout sync: ${runner.name} failed`, { provider: runner.name, error: errorText(error) })
      }
    }
    if (counts.paid + counts.failed + counts.processing > 0) logger.info(`payout sync: ${counts.paid} paid, ${counts.failed} failed, ${counts.processing} still processing`, counts)
    if (scheduled) await schedule()
    return counts
  }

  // One run at a time: a run slower than the interval is not overlapped by the next.
  const run = () => (running ??= once().finally(() => (running = null)))
  const timer = setInterval(() => void run(), (config.syncIntervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000)
  timer.unref()
  const webhookId = config.paypal?.webhookId
  const paypalWebhooks =
    paypalClient && webhookId
      ? payPalWebhookHandler({
          program,
          client: paypalClient,
          webhookId,
          onError: (error) => logger.error('PayPal webhook error', { error: errorText(error) }),
          ...(observer.logger ? { logger: observer.logger } : {}),
          ...(observer.metrics ? { metrics: observer.metrics } : {}),
          route: PAYPAL_WEBHOOK_PATH,
        }).node
      : null
  logger.info(`payout sync: ${runners.map((runner) => runner.name).join(' and ')} every ${config.syncIntervalSeconds ?? DEFAULT_INTERVAL_SECONDS} s`)

  return {
    run,
    paypalWebhooks,
    runs: {
      async run(projectId, input) {
        if (projectId !== program.projectId) throw new ConflictError(`this server sends the payouts of project ${program.projectId} only`, 'project')
        const result = await runner.run({ dryRun: input.dryRun })
        logRun(logger, result, input.trigger)
        return result
      },
    },
    async stop() {
      clearInterval(timer)
      await running?.catch(() => {})
    },
  }
}

/** Sends PayPal's webhook deliveries to its listener and everything else to `api`. */
export function withPayPalWebhooks(api: NodeHandler, listener: NodeHandler): NodeHandler {
  return (req, res, next) => ((req.url ?? '').split('?')[0] === PAYPAL_WEBHOOK_PATH ? listener : api)(req, res, next)
}
