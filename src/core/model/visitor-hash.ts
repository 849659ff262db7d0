// Who a visitor is, for counting once per day and for the fraud rules: a salted SHA-256 of the
// day, the client address and the user agent. The address is never stored; the day in the hash
// means one day's hashes cannot be matched with another's.
import { createHash, randomBytes } from 'node:crypto'

export function newVisitorSalt(): string {
  return randomBytes(32).toString('base64url')
}

export function visitorHash(salt: string, day: string, address: string, userAgent: string): string {
  return createHash('sha256').update(`${salt}\n${day}\n${address}\n${userAgent}`).digest('base64url').slice(0, 32)
}

/** What a signed referral and the fraud rules' visitor signals keep of a visitor's hash. */
export const shortVisitor = (hash: string) => hash.slice(0, 16)
