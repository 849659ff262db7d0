// affiliate-kit/lemon-squeezy: a Fetch handler for Lemon Squeezy webhooks. X-Signature is the
// hex HMAC-SHA256 of the raw body with the webhook's signing secret. The payload has no
// timestamp, so a replayed request is answered from the event log and applies nothing.
import { providerHandler, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { anySignatureMatches, secretList, type Secrets } from '../signature.js'
import { LEMON_SQUEEZY_EVENTS, mapLemonSqueezyEvent } from './map.js'

export interface LemonSqueezyHandlerOptions extends ProviderHandlerOptions {
  /** The webhook's signing secret, or several while one is being changed. */
  webhookSecret: Secrets
}

export function verifyLemonSqueezySignature(secrets: string[], rawBody: string, header: string | null): string | null {
  if (!header) return 'missing X-Signature header'
  return anySignatureMatches(secrets, rawBody, [header.trim()]) ? null : 'no signature matches'
}

export function lemonSqueezyHandler(options: LemonSqueezyHandlerOptions): ProviderHandler {
  const secrets = secretList(options.webhookSecret)
  return providerHandler(
    {
      name: 'lemon-squeezy',
      verify: (raw, header) => verifyLemonSqueezySignature(secrets, raw, header('x-signature')),
      map: (body) => mapLemonSqueezyEvent(body),
    },
    options,
  )
}

export { LEMON_SQUEEZY_EVENTS, mapLemonSqueezyEvent }
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
