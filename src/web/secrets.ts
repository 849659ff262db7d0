// Random secrets for browser pages (session ids, sign-in tokens, pre-session cookies), their
// stored digests, and the CSRF token derived from a secret.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes, base64url: 43 characters. */
export const newSecret = (): string => randomBytes(32).toString('base64url')

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Whether `text` can be a secret of newSecret (checked before any store lookup). */
export const isSecretShaped = (text: string | null | undefined): text is string => typeof text === 'string' && SECRET_SHAPE.test(text)

/** What the store keeps in place of a secret. */
export const digestOf = (secret: string): string => createHash('sha256').update(secret).digest('hex')

/**
 * The CSRF token of a form: derived from the cookie secret it travels beside, so a page on
 * another site, which cannot read the cookie, cannot produce it.
 */
export const csrfTokenFor = (secret: string): string => createHash('sha256').update(`csrf:${secret}`).digest('base64url')

export function csrfTokenMatches(secret: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string') return false
  const expected = Buffer.from(csrfTokenFor(secret))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
