// Random identifiers: project ids, API keys, referral codes, and key hashing.
import * as crypto from 'node:crypto'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Encodes random bytes as base62 (big-endian number conversion, no modulo bias). */
export function base62(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`)
  let text = ''
  while (value > 0n) {
    text = BASE62[Number(value % 62n)] + text
    value /= 62n
  }
  return text || '0'
}

export function newProjectId(): string {
  return `proj_${base62(crypto.randomBytes(12))}`
}

export function newApiKey(): string {
  return `rgk_${base62(crypto.randomBytes(32))}`
}

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** An 8-character referral code without look-alike characters. */
export function newReferralCode(): string {
  const bytes = crypto.randomBytes(8)
  let code = ''
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length]
  return code
}

/** The longest referral code or link key. */
const MAX_CODE_LENGTH = 64

/** A readable link key from the affiliate's referral code: `<code>-<4 characters>` (docs/links.md "Keys"). */
export function newLinkKey(referralCode: string): string {
  let suffix = ''
  for (const byte of crypto.randomBytes(4)) suffix += CODE_ALPHABET[byte % CODE_ALPHABET.length]
  return `${referralCode.slice(0, MAX_CODE_LENGTH - suffix.length - 1)}-${suffix}`
}

/** One-shot `crypto.hash` (Node 20.12+) skips the Hash object; older Node 20 falls back. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string) => string }).hash

export function sha256Hex(text: string): string {
  return oneShotHash ? oneShotHash('sha256', text) : crypto.createHash('sha256').update(text).digest('hex')
}
