// The request headers of one delivery attempt (docs/webhooks.md "Request headers").
import type { ClaimedDelivery } from '../core/ports/outbox-store.js'
import type { WebhookEndpoint } from '../core/model/types.js'
import { signPayload, standardSignatureHeader } from './signing.js'

export interface HeaderOptions {
  /** Header prefix. @default 'X-Service' */
  headerPrefix: string
  /** @default 'Service-Webhooks/1.0' */
  userAgent: string
}

/** The secrets that sign at `now`: the current one, plus the previous one during its grace period. */
export function liveSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const secrets: string[] = []
  if (endpoint.secret !== null) secrets.push(endpoint.secret)
  if (endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now) {
    secrets.push(endpoint.previousSecret)
  }
  return secrets
}

/**
 * Default mode: Content-Type, User-Agent, `<prefix>-Event`, `<prefix>-Delivery` and, with a
 * secret, `<prefix>-Signature` made with the newest secret (one value, the form GitHub-style
 * verifiers accept); during a rotation's grace period the previous secret's signature travels in
 * `<prefix>-Signature-Previous`. Standard Webhooks mode replaces the signature header with
 * `webhook-id` (the delivery id, stable across attempts), `webhook-timestamp` and, with a secret,
 * `webhook-signature`.
 */
export function deliveryHeaders(claimed: ClaimedDelivery, now: Date, options: HeaderOptions): Record<string, string> {
  const { delivery, event, endpoint } = claimed
  const prefix = options.headerPrefix
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': options.userAgent,
    [`${prefix}-Event`]: event.type,
    [`${prefix}-Delivery`]: String(delivery.id),
  }
  const secrets = liveSecrets(endpoint, now)
  if (endpoint.mode === 'standard') {
    const id = `msg_${delivery.id}`
    const timestamp = Math.floor(now.getTime() / 1000)
    headers['webhook-id'] = id
    headers['webhook-timestamp'] = String(timestamp)
    if (secrets.length > 0) headers['webhook-signature'] = standardSignatureHeader(secrets, id, timestamp, event.body)
  } else {
    const [current, previous] = secrets
    if (current !== undefined) headers[`${prefix}-Signature`] = signPayload(current, event.body)
    if (previous !== undefined) headers[`${prefix}-Signature-Previous`] = signPayload(previous, event.body)
  }
  return headers
}
