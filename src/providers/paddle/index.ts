// affiliate-kit/paddle: a Fetch handler for Paddle Billing notifications (webhooks).
// Paddle-Signature is `ts=<unix seconds>;h1=<hex>`, h1 the HMAC-SHA256 of `<ts>:<raw body>`
// with the destination's secret key; several h1 are accepted during a secret rotation.
import { providerHandler, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { secretList, verifyTimestamped, type Secrets, type TimestampedScheme } from '../signature.js'
import { mapPaddleEvent, PADDLE_EVENTS } from './map.js'

export interface PaddleHandlerOptions extends ProviderHandlerOptions {
  /** The notification destination's secret key, or several while one is being rotated. */
  webhookSecret: Secrets
  /** How far the signature's timestamp may be from now. @default 300 */
  toleranceSeconds?: number
}

const PADDLE: TimestampedScheme = {
  header: 'Paddle-Signature',
  separator: ';',
  timestampKey: 'ts',
  signatureKey: 'h1',
  signedPayload: (timestamp, rawBody) => `${timestamp}:${rawBody}`,
}

export function verifyPaddleSignature(secrets: string[], rawBody: string, header: string | null, now: Date, toleranceSeconds: number): string | null {
  return verifyTimestamped(PADDLE, secrets, rawBody, header, now, toleranceSeconds)
}

export function paddleHandler(options: PaddleHandlerOptions): ProviderHandler {
  const secrets = secretList(options.webhookSecret)
  const tolerance = options.toleranceSeconds ?? 300
  return providerHandler(
    {
      name: 'paddle',
      verify: (raw, header, now) => verifyPaddleSignature(secrets, raw, header('paddle-signature'), now, tolerance),
      map: (body) => mapPaddleEvent(body),
    },
    options,
  )
}

export { mapPaddleEvent, PADDLE_EVENTS }
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
