// A small method + path router: patterns like /affiliates/:email, params URL-decoded (malformed
// encodings and NUL characters are 400), and the 404 / 405 (with Allow) answers for paths or
// methods that match nothing.
import { HttpError } from './errors.js'
import { storableText } from './text.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RouteMatch<R> {
  route: R
  params: Record<string, string>
}

interface Entry<R> {
  method: Method
  parts: string[]
  route: R
}

export class Router<R> {
  private readonly entries: Entry<R>[] = []

  add(method: Method, pattern: string, route: R): this {
    this.entries.push({ method, parts: pattern.split('/').filter(Boolean), route })
    return this
  }

  /** The route for method and path, or an HttpError 404 / 405. */
  match(method: string, path: string): RouteMatch<R> {
    const segments = path.split('/').filter(Boolean)
    const allowed = new Set<string>()
    for (const entry of this.entries) {
      const params = matchParts(entry.parts, segments)
      if (!params) continue
      if (entry.method === method) return { route: entry.route, params }
      allowed.add(entry.method)
    }
    if (allowed.size === 0) throw new HttpError('not_found', `no route for ${method} ${path}`)
    const allow = [...allowed].join(', ')
    throw new HttpError('method_not_allowed', `method ${method} is not allowed here; allowed: ${allow}`, undefined, { Allow: allow })
  }
}

function matchParts(parts: string[], segments: string[]): Record<string, string> | null {
  if (parts.length !== segments.length) return null
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!
    if (part[0] !== ':' && part !== segments[i]) return null
  }
  // Literal parts all match: only now decode the parameters.
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!
    if (part[0] !== ':') continue
    const name = part.slice(1)
    let value: string
    try {
      value = decodeURIComponent(segments[i]!)
    } catch {
      throw new HttpError('invalid_request', `${name}: is not validly URL-encoded`, name)
    }
    if (!storableText(value)) throw new HttpError('invalid_request', `${name}: must not contain NUL characters`, name)
    params[name] = value
  }
  return params
}
