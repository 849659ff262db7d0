// Polar signs its webhooks the Standard Webhooks way (docs/providers.md "Polar"): webhook-signature
// holds `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, space-separated
// when there are several. Polar's SDK (validateEvent) takes the secret's UTF-8 bytes, base64-encoded,
// as the Standard Webhooks key: so does this. The package's own verify reads the system clock; here
// the program's clock judges the timestamp, and each secret of a rotation is tried.
import { sameText } from '../signature.js'
import { Webhook } from 'standardwebhooks'
import type { HeaderOf } from '../handler.js'

/** The Standard Webhooks signer of each secret, keyed as Polar's SDK keys it. */
export function polarSigners(secrets: string[]): Webhook[] {
  return secrets.map((secret) => new Webhook(Buffer.from(secret, 'utf8').toString('base64')))
}

/** Null when a signature matches under a secret and the timestamp is within the tolerance, else why not. */
export function verifyPolarSignature(signers: Webhook[], rawBody: string, header: HeaderOf, now: Date, toleranceSeconds: number): string | null {
  const id = header('webhook-id')
  const timestamp = header('webhook-timestamp')
  const signature = header('webhook-signature')
  if (!id || !timestamp || !signature) return 'missing webhook-id, webhook-timestamp or webhook-signature header'
  if (!/^\d{1,12}$/.test(timestamp)) return 'webhook-timestamp is not unix seconds'
  const sentAt = new Date(Number(timestamp) * 1000)
  const passed = signature.split(' ').filter((candidate) => candidate !== '')
  const matches = signers.some((signer) => {
    const expected = signer.sign(id, sentAt, rawBody)
    return passed.some((candidate) => sameText(candidate, expected))
  })
  if (!matches) return 'no signature matches'
  if (Math.abs(now.getTime() - sentAt.getTime()) / 1000 > toleranceSeconds) return 'timestamp outside the tolerance'
  return null
}
