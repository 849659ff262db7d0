// Stripe-Signature: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, each v1 the HMAC-SHA256 of
// `<t>.<raw body>` with an endpoint secret (whsec_...). Any v1 under any configured secret
// passes (Stripe sends one per active secret while a rolled secret expires); the timestamp must
// be within the tolerance of now, so a captured request cannot be replayed later.
import { verifyTimestamped, type TimestampedScheme } from '../signature.js'

const STRIPE: TimestampedScheme = {
  header: 'Stripe-Signature',
  separator: ',',
  timestampKey: 't',
  signatureKey: 'v1',
  signedPayload: (timestamp, rawBody) => `${timestamp}.${rawBody}`,
}

export function verifyStripeSignature(secrets: string[], rawBody: string, header: string | null, now: Date, toleranceSeconds: number): string | null {
  return verifyTimestamped(STRIPE, secrets, rawBody, header, now, toleranceSeconds)
}
