// HMAC-SHA256 helpers shared by the providers' signature checks: one digest per secret, compared
// with the hex signatures as bytes in constant time, and a secret option that may list several
// secrets during a rotation.
import { createHmac, timingSafeEqual } from 'node:crypto'

const SHA256_HEX = /^[0-9a-fA-F]{64}$/

/** True when `candidate` is the hex form (any case) of the digest `expected` (compared in constant time). */
function sameDigest(expected: Buffer, candidate: string): boolean {
  return SHA256_HEX.test(candidate) && timingSafeEqual(expected, Buffer.from(candidate, 'hex'))
}

/** One secret or several (the new one and the one being rotated out). */
export type Secrets = string | readonly string[]

/** Two texts compared in constant time (for equal lengths). */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}

export function secretList(secrets: Secrets): string[] {
  const list = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => secret !== '')
  if (list.length === 0) throw new Error('affiliate-kit: a provider handler needs its webhook secret')
  return list
}

/** Whether any hex signature is the HMAC-SHA256 of the payload under any secret: one HMAC per secret. */
export function anySignatureMatches(secrets: string[], payload: string, signatures: string[]): boolean {
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(payload, 'utf8').digest()
    return signatures.some((signature) => sameDigest(expected, signature))
  })
}

/** A signature header carrying a timestamp and one or more HMACs of a payload built from it. */
export interface TimestampedScheme {
  header: string
  /** Between the header's key=value parts: ',' for Stripe, ';' for Paddle. */
  separator: string
  timestampKey: string
  signatureKey: string
  signedPayload(timestamp: number, rawBody: string): string
}

/** Null when a signature matches under a secret and the timestamp is within the tolerance, else why not. */
export function verifyTimestamped(scheme: TimestampedScheme, secrets: string[], rawBody: string, header: string | null, now: Date, toleranceSeconds: number): string | null {
  if (!header) return `missing ${scheme.header} header`
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(scheme.separator)) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined]
    if (key === scheme.timestampKey && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    if (key === scheme.signatureKey && value) signatures.push(value)
  }
  if (timestamp === null) return `no ${scheme.timestampKey} in ${scheme.header}`
  if (signatures.length === 0) return `no ${scheme.signatureKey} signature in ${scheme.header}`
  if (!anySignatureMatches(secrets, scheme.signedPayload(timestamp, rawBody), signatures)) return 'no signature matches'
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return 'timestamp outside the tolerance'
  return null
}
