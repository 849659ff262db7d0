// affiliate-kit/paddle: a Fetch handler for Paddle Billing notifications (webhooks).
// Paddle-Signature is `ts=<unix seconds>;h1=<hex>`, h1 the HMAC-SHA256 of `<ts>:<raw body>`
// with the destination's secret key; several h1 are accepted during a secret rotation.
import { providerHandler, type FetchHandler, type ProviderHandlerOptions } from '../handler.js'
import { anySignatureMatches, secretList, type Secrets } from '../signature.js'
import { mapPaddleEvent, PADDLE_EVENTS } from './map.js'

export interface PaddleHandlerOptions extends ProviderHandlerOptions {
  /** The notification destination's secret key, or several while one is being rotated. */
  webhookSecret: Secrets
  /** How far the signature's timestamp may be from now. @default 300 */
  toleranceSeconds?: number
}

export function verifyPaddleSignature(secrets: string[], rawBody: string, header: string | null, now: Date, toleranceSeconds: number): string | null {
  if (!header) return 'missing Paddle-Signature header'
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(';')) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined]
    if (key === 'ts' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    if (key === 'h1' && value) signatures.push(value)
  }
  if (timestamp === null || signatures.length === 0) return 'Paddle-Signature needs ts and h1'
  if (!anySignatureMatches(secrets, `${timestamp}:${rawBody}`, signatures)) return 'no signature matches'
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return 'timestamp outside the tolerance'
  return null
}

export function paddleHandler(options: PaddleHandlerOptions): FetchHandler {
  const secrets = secretList(options.webhookSecret)
  const tolerance = options.toleranceSeconds ?? 300
  return providerHandler(
    {
      name: 'paddle',
      verify: (raw, headers, now) => verifyPaddleSignature(secrets, raw, headers.get('paddle-signature'), now, tolerance),
      map: (body) => mapPaddleEvent(body),
    },
    options,
  )
}

export { mapPaddleEvent, PADDLE_EVENTS }
export type { FetchHandler, ProviderHandlerOptions } from '../handler.js'
