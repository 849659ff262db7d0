// The webhook dispatcher behind program.webhooks.start/stop/dispatch. (Filled in by the webhooks issue.)
import type { AffiliateProgram, WebhookRunner } from '../core/program.js'

export interface WebhookRunnerOptions {
  /** Header prefix. @default 'X-Service' */
  headerPrefix?: string
  /** @default 'Service-Webhooks/1.0' */
  userAgent?: string
}

export function createWebhookRunner(_program: AffiliateProgram, _options: WebhookRunnerOptions = {}): WebhookRunner {
  const notYet = (): never => {
    throw new Error('webhook delivery is not implemented yet')
  }
  return { start: notYet, stop: async () => {}, dispatch: notYet, sendTest: notYet }
}
