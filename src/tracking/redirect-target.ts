// Where a referral link may send the visitor: the landing URL, or `?to=` when it names one of the
// allowed origins exactly. Never an open redirect: anything that is not plainly an absolute
// http(s) URL of an allowed origin, or a path on the landing URL's origin, goes to the landing URL.
// The referral travels to the landing page as one more query parameter (withQueryParam).

/** Origins as URL parsing spells them (`https://shop.example`, default ports dropped); throws on a value that is no http(s) origin. */
export function normalizeOrigins(origins: readonly string[]): Set<string> {
  const set = new Set<string>()
  for (const origin of origins) {
    const url = new URL(origin)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`allowed origin ${origin} must be http or https`)
    set.add(url.origin)
  }
  return set
}

/** An absolute http(s) URL written plainly: scheme, "//", then no backslash, whitespace or control character anywhere. */
const ABSOLUTE = /^https?:\/\/[^\\\s\x00-\x1f\x7f]+$/i
/** A path on the landing origin: one "/" not followed by "/" or "\", and nothing URL parsing would strip or turn into a slash. */
const LOCAL_PATH = /^\/(?![/\\])[^\\\s\x00-\x1f\x7f]*$/

export function redirectTarget(to: string | null, landingUrl: string, allowed: ReadonlySet<string>): string {
  if (to === null || to.length > 2048) return landingUrl
  let url: URL
  try {
    if (ABSOLUTE.test(to)) url = new URL(to)
    else if (LOCAL_PATH.test(to)) url = new URL(to, landingUrl)
    else return landingUrl
  } catch {
    return landingUrl
  }
  if (url.username !== '' || url.password !== '') return landingUrl
  const landingOrigin = new URL(landingUrl).origin
  return url.origin === landingOrigin || allowed.has(url.origin) ? url.href : landingUrl
}

/** `target` with `name=value` as its last query parameter; the rest of its query as written, or re-encoded (spaces as +) when it had a `name` parameter, which is dropped. */
export function withQueryParam(target: string, name: string, value: string): string {
  const url = new URL(target)
  if (url.searchParams.has(name)) url.searchParams.delete(name)
  url.search = `${url.search === '' ? '' : `${url.search}&`}${name}=${encodeURIComponent(value)}`
  return url.href
}
