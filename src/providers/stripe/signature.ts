// Stripe-Signature: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, each v1 the HMAC-SHA256 of
// `<t>.<raw body>` with an endpoint secret (whsec_...). Any v1 under any configured secret
// passes (Stripe sends one per active secret while a rolled secret expires); the timestamp must
// be within the tolerance of now, so a captured request cannot be replayed later.
import { anySignatureMatches } from '../signature.js'

export function verifyStripeSignature(secrets: string[], rawBody: string, header: string | null, now: Date, toleranceSeconds: number): string | null {
  if (!header) return 'missing Stripe-Signature header'
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined]
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    if (key === 'v1' && value) signatures.push(value)
  }
  if (timestamp === null) return 'no timestamp in Stripe-Signature'
  if (signatures.length === 0) return 'no v1 signature in Stripe-Signature'
  if (!anySignatureMatches(secrets, `${timestamp}.${rawBody}`, signatures)) return 'no signature matches'
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return 'timestamp outside the tolerance'
  return null
}
