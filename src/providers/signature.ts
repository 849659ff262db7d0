// HMAC-SHA256 helpers shared by the providers' signature checks: hex digests compared in
// constant time, and a secret option that may list several secrets during a rotation.
import { createHmac, timingSafeEqual } from 'node:crypto'

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex')
}

/** True when `candidate` is the hex digest `expected` (constant time, any case). */
export function sameHex(expected: string, candidate: string): boolean {
  if (!/^[0-9a-fA-F]+$/.test(candidate) || candidate.length !== expected.length) return false
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(candidate.toLowerCase(), 'hex'))
}

/** One secret or several (the new one and the one being rotated out). */
export type Secrets = string | readonly string[]

export function secretList(secrets: Secrets): string[] {
  const list = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => secret !== '')
  if (list.length === 0) throw new Error('affiliate-kit: a provider handler needs its webhook secret')
  return list
}

/** Whether any signature matches the payload under any secret. */
export function anySignatureMatches(secrets: string[], payload: string, signatures: string[]): boolean {
  return secrets.some((secret) => {
    const expected = hmacHex(secret, payload)
    return signatures.some((signature) => sameHex(expected, signature))
  })
}
