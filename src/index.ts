// affiliate-kit: what an app needs to run a program. Adapters, HTTP, webhooks and the storage
// port for adapter authors (affiliate-kit/storage) live in their own entry points.
import { createAffiliateProgram as createCoreProgram, type AffiliateProgram, type AffiliateProgramOptions } from './core/program.js'
import { createWebhookRunner, type WebhookRunnerOptions } from './webhooks/runner.js'
import { observedRunnerOptions } from './ops/delivery-log.js'
import type { Logger } from './ops/logger.js'
import type { Metrics } from './ops/metrics.js'

export type { AffiliateProgram, AffiliateProgramOptions, ProjectScope, TestDeliveryResult, WebhookRunner } from './core/program.js'

export type { AttemptReport, WebhookRunnerOptions } from './webhooks/runner.js'

export interface ProgramOptions extends AffiliateProgramOptions {
  /** Tunes the dispatcher (header prefix, User-Agent, timeout, lease, jitter, onAttempt). */
  webhooks?: WebhookRunnerOptions
  /** Receives failed webhook deliveries and dispatcher errors. @default none (errors go to console.error) */
  logger?: Logger
  /** Counts webhook delivery attempts by outcome (share it with createHandler's `metrics`). @default none */
  metrics?: Metrics
}

/** Creates the program over a storage adapter, with the webhook dispatcher wired in. */
export function createAffiliateProgram(options: ProgramOptions): Promise<AffiliateProgram> {
  const { webhooks, logger, metrics, ...rest } = options
  const runnerOptions = observedRunnerOptions(webhooks, logger, metrics)
  return createCoreProgram({ webhookRunner: (program) => createWebhookRunner(program, runnerOptions), ...rest })
}

export { createLogger, LOG_LEVELS } from './ops/logger.js'
export type { LogFields, LogFormat, Logger, LoggerOptions, LogLevel } from './ops/logger.js'
export { createMetrics } from './ops/metrics.js'
export type { DeliveryOutcome, Metrics } from './ops/metrics.js'

export { systemClock, testClock } from './core/clock.js'
export type { Clock, TestClock } from './core/clock.js'
export type { ExchangeRates } from './core/context.js'
export { AffiliateError, ConflictError, NotFoundError, ValidationError } from './core/errors.js'
export type { AffiliateErrorCode } from './core/errors.js'
export { hasScope } from './core/keys.js'
export type { ApiKeyView, VerifiedKey } from './core/keys.js'
export { gcra } from './core/rate-limit.js'
export type { RateLimitDecision } from './core/rate-limit.js'
export type { RateLimitStore, StoragePort } from './core/storage.js'
export type * from './core/types.js'
export { EVENT_TYPES, SCOPES } from './core/types.js'
export type * from './core/views.js'
export type * from './core/schemas.js'
export type { ConversionPreview, CreateConversionOptions, CreateConversionResult } from './core/conversion-create.js'
export type { MatchedBy } from './core/attribution.js'
export type { AffiliateRef } from './core/affiliates.js'
export type { ReferralRef } from './core/referrals.js'
export type { WebhookEndpointView, CreateWebhookInput, UpdateWebhookInput } from './core/webhook-endpoints.js'
export { formatMoney, minorDigits, parseMoney } from './core/money.js'
