// affiliate-kit/webhooks: signature verification for receivers, signing helpers, and the
// dispatcher types (the dispatcher itself runs behind program.webhooks.start/stop/dispatch).
export { signPayload, standardSignatureHeader, verifySignature, verifyStandardWebhook } from './signing.js'
export type { RawBody, StandardVerifyOptions } from './signing.js'
export { createWebhookRunner } from './runner.js'
export type { AttemptReport, WebhookRunnerOptions } from './runner.js'
export type { WebhookRunner } from '../core/program.js'
export { isForbiddenAddress } from '../core/network.js'
