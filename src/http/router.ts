// A small method + path router: patterns like /affiliates/:email, params URL-decoded, and the
// 404 / 405 (with Allow) answers for paths or methods that match nothing.
import { HttpError } from './errors.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

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
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!
    const segment = segments[i]!
    if (part.startsWith(':')) {
      let value: string
      try {
        value = decodeURIComponent(segment)
      } catch {
        throw new HttpError('invalid_request', `${part.slice(1)}: is not validly URL-encoded`, part.slice(1))
      }
      params[part.slice(1)] = value
    } else if (part !== segment) return null
  }
  return params
}
