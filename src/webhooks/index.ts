// affiliate-kit/webhooks: the dispatcher that sends the program's webhook deliveries (a peer of
// the program over the same storage), signature verification for receivers, signing helpers.
export { signPayload, standardSignatureHeader, verifySignature, verifyStandardWebhook } from './signing.js'
export type { RawBody, StandardVerifyOptions } from './signing.js'
export { createWebhookDispatcher } from './dispatcher.js'
export type { AttemptReport, DeliveryOptions, TestDeliveryResult, WebhookDispatcher, WebhookDispatcherOptions } from './dispatcher.js'
export type { OutboxStore } from '../core/ports/outbox-store.js'
export { isForbiddenAddress } from '../core/rules/network.js'
