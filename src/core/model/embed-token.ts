// The embed token (docs/embed.md): `ake_<affiliate id>.<expiry>.<hidden sections>.<signature>`,
// an HMAC-SHA256 under the project's secret salt (the one that signs referrals), over a purpose of
// its own: it opens the embedded dashboard of one affiliate until it expires, and nothing else.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** The dashboard's sections a token (or the page's `hide`) can leave out; `payouts` takes the payout settings with it. */
export const EMBED_SECTIONS = ['links', 'earnings', 'conversions', 'payouts'] as const
export type EmbedSection = (typeof EMBED_SECTIONS)[number]

export interface EmbedTokenClaims {
  affiliateId: number
  /** Unix seconds. */
  expires: number
  hide: EmbedSection[]
}

const TOKEN = /^ake_([1-9][0-9]{0,14})\.([0-9]{1,12})\.([0-9]{1,2})\.([A-Za-z0-9_-]{43})$/

const maskOf = (hide: readonly EmbedSection[]): number => EMBED_SECTIONS.reduce((mask, section, bit) => (hide.includes(section) ? mask | (1 << bit) : mask), 0)
const sectionsOf = (mask: number): EmbedSection[] => EMBED_SECTIONS.filter((_, bit) => (mask & (1 << bit)) !== 0)

function signature(secret: string, projectId: string, affiliateId: number, expires: number, mask: number): string {
  return createHmac('sha256', secret).update(`affiliate-kit embed\n${projectId}\n${affiliateId}\n${expires}\n${mask}`).digest('base64url')
}

export function signEmbedToken(secret: string, projectId: string, claims: EmbedTokenClaims): string {
  const mask = maskOf(claims.hide)
  return `ake_${claims.affiliateId}.${claims.expires}.${mask}.${signature(secret, projectId, claims.affiliateId, claims.expires, mask)}`
}

/** What a token names when its signature holds under `secret` for the project, expired or not; else null. */
export function readEmbedToken(secret: string, projectId: string, value: unknown): EmbedTokenClaims | null {
  const match = typeof value === 'string' ? TOKEN.exec(value) : null
  if (!match) return null
  const [affiliateId, expires, mask] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (mask >= 1 << EMBED_SECTIONS.length) return null
  const expected = Buffer.from(signature(secret, projectId, affiliateId, expires, mask))
  const given = Buffer.from(match[4]!)
  return given.length === expected.length && timingSafeEqual(given, expected) ? { affiliateId, expires, hide: sectionsOf(mask) } : null
}
