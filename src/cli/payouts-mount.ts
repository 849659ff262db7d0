// The standalone server's automatic payouts (docs/payouts.md "Running it"): with `payoutProviders`
// in the config, every processing PayPal and Stripe payout is synced on a schedule (a batch never
// recorded is sent again with its sender_batch_id, a batch's status read, a Stripe transfer
// replayed with its Idempotency-Key), and PayPal's item webhooks are answered at
// /api/v1/payouts/paypal/webhooks when the config names the webhook.
import type { AffiliateProgram } from '../core/program.js'
import { errorText, type Logger } from '../ops/logger.js'
import { payPalClient } from '../payouts/paypal/client.js'
import { payPalPayouts } from '../payouts/paypal/payouts.js'
import { payPalWebhookHandler } from '../payouts/paypal/webhooks.js'
import { stripeTransfers } from '../payouts/stripe/transfers.js'
import type { NodeHandler } from '../server/node.js'
import type { ServerConfig } from './config.js'
import { observed, type RequestObserver } from './observed-surface.js'

export const PAYPAL_WEBHOOK_PATH = '/api/v1/payouts/paypal/webhooks'
const DEFAULT_INTERVAL_SECONDS = 300

type PayoutProvidersConfig = NonNullable<ServerConfig['payoutProviders']>

export interface PayoutSync {
  /** Runs one sync of every configured provider now (the schedule runs it too); resolves with the counts. */
  run(): Promise<{ paid: number; failed: number; processing: number }>
  /** The PayPal webhook listener, when configured. */
  paypalWebhooks: NodeHandler | null
  stop(): Promise<void>
}

export function payoutSync(program: AffiliateProgram, config: PayoutProvidersConfig, logger: Logger): PayoutSync {
  const paypalClient = config.paypal ? payPalClient({ baseUrl: config.paypal.baseUrl ?? 'https://api-m.paypal.com', clientId: config.paypal.clientId, clientSecret: config.paypal.clientSecret }) : null
  const runners = [
    ...(paypalClient ? [{ name: 'PayPal', sync: payPalPayouts(program, paypalClient).sync }] : []),
    ...(config.stripe ? [{ name: 'Stripe', sync: stripeTransfers(program, { secretKey: config.stripe.secretKey, ...(config.stripe.baseUrl ? { baseUrl: config.stripe.baseUrl } : {}) }).sync }] : []),
  ]
  let running: Promise<{ paid: number; failed: number; processing: number }> | null = null

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
    return counts
  }

  // One run at a time: a run slower than the interval is not overlapped by the next.
  const run = () => (running ??= once().finally(() => (running = null)))
  const timer = setInterval(() => void run(), (config.syncIntervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000)
  timer.unref()
  const webhookId = config.paypal?.webhookId
  const paypalWebhooks =
    paypalClient && webhookId
      ? payPalWebhookHandler({ program, client: paypalClient, webhookId, onError: (error) => logger.error('PayPal webhook error', { error: errorText(error) }) }).node
      : null
  logger.info(`payout sync: ${runners.map((runner) => runner.name).join(' and ')} every ${config.syncIntervalSeconds ?? DEFAULT_INTERVAL_SECONDS} s`)

  return {
    run,
    paypalWebhooks,
    async stop() {
      clearInterval(timer)
      await running?.catch(() => {})
    },
  }
}

/** Sends PayPal's webhook deliveries to its listener and everything else to `api`. */
export function withPayPalWebhooks(api: NodeHandler, listener: NodeHandler, observer?: RequestObserver): NodeHandler {
  const route = observed(listener, 'provider', () => PAYPAL_WEBHOOK_PATH, observer)
  return (req, res, next) => ((req.url ?? '').split('?')[0] === PAYPAL_WEBHOOK_PATH ? route : api)(req, res, next)
}
