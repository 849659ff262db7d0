// Responses of the browser pages: every one carries the security headers and a strict CSP
// (scripts and styles only from this site's files, no framing by other sites, forms post here).
import { createHash } from 'node:crypto'
import type { Html } from './html.js'

export function securityHeaders(imageOrigin: string | null): Record<string, string> {
  const images = imageOrigin ? `'self' ${imageOrigin}` : "'self'"
  return {
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src ${images}`,
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'self'",
      "base-uri 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    // Sign-in tokens travel in URLs: never send them on to another site.
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  }
}

export interface PageHeaders {
  security: Record<string, string>
  cookies?: string[]
}

/** An HTML page; never cached, since it shows one person's data. */
export function pageResponse(body: Html, status: number, { security, cookies = [] }: PageHeaders): Response {
  const headers = new Headers({ ...security, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  for (const cookie of cookies) headers.append('set-cookie', cookie)
  return new Response(`<!doctype html>\n${body.text}`, { status, headers })
}

/** 303 See Other: after a form post, the browser loads `location` with GET. */
export function redirectResponse(location: string, { security, cookies = [] }: PageHeaders): Response {
  const headers = new Headers({ ...security, location, 'cache-control': 'no-store' })
  for (const cookie of cookies) headers.append('set-cookie', cookie)
  return new Response(null, { status: 303, headers })
}

export interface StaticAsset {
  body: string
  contentType: string
  /** Short content hash, put in the asset's URL so it may be cached for long. */
  version: string
}

export function staticAsset(body: string, contentType: string): StaticAsset {
  return { body, contentType, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }
}

export function assetResponse(asset: StaticAsset, request: Request, security: Record<string, string>): Response {
  const etag = `"${asset.version}"`
  const headers = { ...security, 'content-type': asset.contentType, 'cache-control': 'public, max-age=31536000, immutable', etag }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  return new Response(asset.body, { status: 200, headers })
}
