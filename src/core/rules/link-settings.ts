// Where affiliates' links are reached and where they may send visitors (docs/links.md): the program
// option `links` checked once (linkSettings), a link's short URL built from it alone (never from a
// request's Host), and the checks a destination and a short domain pass.
import { ValidationError } from '../model/errors.js'
import type { Link } from '../model/types.js'

/** The program option `links` (createAffiliateProgram). */
export interface LinkOptions {
  /**
   * The public origin the tracking handler's links are reached at (`https://go.example`): with
   * `prefix`, each link's short URL (`https://go.example/r/<key>`) and the URL its QR code encodes.
   * @default none: a link without a short domain has no short URL and no QR code
   */
  publicUrl?: string
  /** The path of the tracking handler's links, as its option `prefix`. @default '/r' */
  prefix?: string
  /**
   * The origins a destination may point at (the tracking handler's landing URL's origin and its
   * `allowedOrigins`). @default any http(s) origin
   */
  allowedOrigins?: readonly string[]
  /** The short domains: host names that serve `/<key>` (`go.example`). @default none */
  domains?: readonly string[]
}

/** The option checked and normalized. */
export interface LinkSettings {
  /** `https://go.example/r/`: a key appended is a link's short URL; null without a public URL. */
  base: string | null
  /** Origins as URL parsing spells them; null: any http(s) origin. */
  allowedOrigins: ReadonlySet<string> | null
  /** Lower-case host names. */
  domains: ReadonlySet<string>
}

const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
/** A host name with at least one dot (`go.example`), in lower case. */
const HOST = new RegExp(`^(?=.{1,253}$)${HOST_LABEL}(?:\\.${HOST_LABEL})+$`)
/** An absolute http(s) URL written plainly: no whitespace, backslash or control character anywhere. */
const ABSOLUTE = /^https?:\/\/[^\\\s\x00-\x1f\x7f]+$/i
export const MAX_DESTINATION_LENGTH = 2048

function httpUrl(value: string, what: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`links: ${what} ${JSON.stringify(value)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`links: ${what} ${value} must be http or https`)
  return url
}

/** Checks the option; a bad value fails the program's start with a TypeError naming it. */
export function linkSettings(options: LinkOptions = {}): LinkSettings {
  let base: string | null = null
  if (options.publicUrl !== undefined) {
    const url = httpUrl(options.publicUrl, 'publicUrl')
    const prefix = `/${options.prefix ?? 'r'}`.replace(/\/+/g, '/').replace(/\/$/, '')
    if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(prefix)) throw new TypeError(`links: prefix ${options.prefix} must be a path such as /r`)
    base = `${url.origin}${url.pathname.replace(/\/+$/, '')}${prefix}/`
  }
  const allowedOrigins = options.allowedOrigins === undefined ? null : new Set(options.allowedOrigins.map((origin) => httpUrl(origin, 'allowed origin').origin))
  const domains = new Set<string>()
  for (const domain of options.domains ?? []) {
    const host = domain.trim().toLowerCase()
    if (!HOST.test(host)) throw new TypeError(`links: short domain ${JSON.stringify(domain)} must be a host name such as go.example`)
    domains.add(host)
  }
  return { base, allowedOrigins, domains }
}

/**
 * The link's short URL: `https://<domain>/<key>` on a short domain still configured, else the
 * tracking handler's public URL, prefix and key; null when neither is configured.
 */
export function shortUrl(settings: LinkSettings, link: Pick<Link, 'key' | 'domain'>): string | null {
  const key = encodeURIComponent(link.key)
  if (link.domain !== null && settings.domains.has(link.domain)) return `https://${link.domain}/${key}`
  return settings.base === null ? null : `${settings.base}${key}`
}

/**
 * A destination as stored (the URL as parsing spells it), or a ValidationError naming `field`: an
 * absolute http(s) URL without credentials, on an allowed origin when the program names them.
 */
export function checkedDestination(settings: LinkSettings, value: string, field = 'destination'): string {
  if (value.length > MAX_DESTINATION_LENGTH) throw new ValidationError(field, (name) => `${name(field)}: must be at most ${MAX_DESTINATION_LENGTH} characters`)
  let url: URL | null = null
  try {
    if (ABSOLUTE.test(value)) url = new URL(value)
  } catch {
    // Not a URL: answered below.
  }
  if (url === null) throw new ValidationError(field, (name) => `${name(field)}: must be an absolute http or https URL`)
  if (url.username !== '' || url.password !== '') throw new ValidationError(field, (name) => `${name(field)}: must not carry a user name or password`)
  if (settings.allowedOrigins !== null && !settings.allowedOrigins.has(url.origin)) {
    const allowed = [...settings.allowedOrigins].join(', ')
    throw new ValidationError(field, (name) => `${name(field)}: ${url.origin} is not an allowed origin (allowed: ${allowed || 'none'})`)
  }
  return url.href
}

/** A short domain as stored (lower case), or a ValidationError naming `field` when it is not configured. */
export function checkedDomain(settings: LinkSettings, value: string, field = 'domain'): string {
  const host = value.trim().toLowerCase()
  if (settings.domains.has(host)) return host
  const configured = [...settings.domains].join(', ')
  const problem = configured === '' ? 'this program has no short domains' : `must be one of the short domains ${configured}`
  throw new ValidationError(field, (name) => `${name(field)}: ${problem}`)
}
