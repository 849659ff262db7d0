// affiliate-kit/payouts: automatic payouts through PayPal Payouts and Stripe Connect
// (docs/payouts.md "Automatic payouts"): the clients, the sync that resumes every processing
// payout, PayPal's item webhooks, and Stripe Connect onboarding.
export { payPalClient, PayPalError } from './paypal/client.js'
export type { PayPalBatch, PayPalBatchItem, PayPalClient, PayPalClientOptions, PayPalItem, PayPalWebhookHeaders } from './paypal/client.js'
export { outcomeOf, payPalPayouts, recordItemStatus, senderBatchId, senderItemId } from './paypal/payouts.js'
export type { PayPalOutcome } from './paypal/payouts.js'
export { payPalWebhookHandler } from './paypal/webhooks.js'
export type { PayPalWebhookHandler, PayPalWebhookOptions } from './paypal/webhooks.js'
export { StripeTransferError, stripeTransfers, transferIdempotencyKey } from './stripe/transfers.js'
export type { StripeTransfersOptions } from './stripe/transfers.js'
export { accountIdempotencyKey, stripeConnect } from './stripe/connect.js'
export type { OnboardingUrls, StripeConnect } from './stripe/connect.js'
export { payoutRunner, payoutSenders, runScheduled, scheduleKey } from './runs.js'
export type { PayoutProviders, PayoutRunner, ScheduledRunOutcome } from './runs.js'
export { providerKey } from './keys.js'
export type { PayoutRunInput, PayoutRunItem, PayoutRunResult, PayoutSender } from '../core/payouts/payout-runs.js'
