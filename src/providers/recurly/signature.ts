// recurly-signature: `<unix milliseconds>,<hex>[,<hex>...]`, each hex the HMAC-SHA256 of
// `<timestamp>.<raw body>` with the endpoint's secret key; two signatures for 24 hours after the
// key is regenerated. Only JSON notifications are signed: an XML one carries no header and is
// refused. Any signature under any configured secret passes, and the timestamp must be within
// the tolerance of the program's clock (docs/providers.md "Recurly").
import { anySignatureMatches } from '../signature.js'

export function verifyRecurlySignature(secrets: string[], rawBody: string, header: string | null, now: Date, toleranceSeconds: number): string | null {
  if (!header) return 'missing recurly-signature header (XML notifications are not signed: set the endpoint to JSON)'
  const [timestamp = '', ...signatures] = header.split(',').map((part) => part.trim())
  if (!/^\d{1,15}$/.test(timestamp)) return 'recurly-signature does not start with a timestamp in milliseconds'
  if (signatures.length === 0) return 'no signature in recurly-signature'
  if (!anySignatureMatches(secrets, `${timestamp}.${rawBody}`, signatures)) return 'no signature matches'
  if (Math.abs(now.getTime() - Number(timestamp)) / 1000 > toleranceSeconds) return 'timestamp outside the tolerance'
  return null
}
