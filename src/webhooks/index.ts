// affiliate-kit/webhooks: the dispatcher that sends the program's webhook deliveries (a peer of
// the program over the same storage), verification for receivers (verifyWebhook and its typed
// events), signing helpers.
export { signPayload, standardSignatureHeader, verifySignature, verifyStandardWebhook } from './signing.js'
export type { RawBody, StandardVerifyOptions } from './signing.js'
export { verifyWebhook, WebhookVerificationError } from './verify.js'
export type { VerifyWebhookOptions, WebhookRequest } from './verify.js'
export type { Json, WebhookEvent, WebhookEventOf, WebhookPayloads } from './events.js'
export { createWebhookDispatcher } from './dispatcher.js'
export type { AttemptReport, DeliveryOptions, TestDeliveryResult, WebhookDispatcher, WebhookDispatcherOptions } from './dispatcher.js'
export type { OutboxStore } from '../core/ports/outbox-store.js'
export { isForbiddenAddress } from '../core/rules/network.js'
