// affiliate-kit: the core. Adapters, HTTP and webhooks live in their own entry points.
import { createAffiliateProgram as createCoreProgram, type AffiliateProgram, type AffiliateProgramOptions } from './core/program.js'
import { createWebhookRunner, type WebhookRunnerOptions } from './webhooks/runner.js'

export type { AffiliateProgram, AffiliateProgramOptions, ProjectScope, TestDeliveryResult, WebhookRunner } from './core/program.js'

export type { WebhookRunnerOptions } from './webhooks/runner.js'

/**
 * Creates the program over a storage adapter, with the webhook dispatcher wired in.
 * `webhooks` tunes the dispatcher (header prefix, User-Agent, timeout, lease, jitter).
 */
export function createAffiliateProgram(
  options: AffiliateProgramOptions & { webhooks?: WebhookRunnerOptions },
): Promise<AffiliateProgram> {
  const { webhooks, ...rest } = options
  return createCoreProgram({ webhookRunner: (program) => createWebhookRunner(program, webhooks), ...rest })
}

export { systemClock, testClock } from './core/clock.js'
export type { Clock, TestClock } from './core/clock.js'
export type { ExchangeRates } from './core/context.js'
export { AffiliateError, ConflictError, NotFoundError, ValidationError } from './core/errors.js'
export type { AffiliateErrorCode } from './core/errors.js'
export { hasScope } from './core/keys.js'
export type { ApiKeyView, VerifiedKey } from './core/keys.js'
export { gcra } from './core/rate-limit.js'
export type { RateLimitDecision } from './core/rate-limit.js'
export { UniqueViolation } from './core/storage.js'
export type * from './core/storage.js'
export type * from './core/types.js'
export { EVENT_TYPES, SCOPES } from './core/types.js'
export type * from './core/views.js'
export type * from './core/schemas.js'
export type { ConversionPreview, CreateConversionResult } from './core/conversion-create.js'
export type { MatchedBy } from './core/attribution.js'
export type { AffiliateRef } from './core/affiliates.js'
export type { ReferralRef } from './core/referrals.js'
export type { WebhookEndpointView, CreateWebhookInput, UpdateWebhookInput } from './core/webhook-endpoints.js'
export { formatMoney, minorDigits, parseMoney } from './core/money.js'
