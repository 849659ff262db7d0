// The request target (path and query, as in the request line) split into the path the router
// matches and the query parameters. WHATWG URL parsing (dot segments, backslashes, percent-encoding)
// is what defines the path; plain targets, which it would leave as they are, skip it.
import { HttpError } from './errors.js'

export interface Target {
  path: string
  query: URLSearchParams
}

/** RFC 3986 path characters only: nothing URL parsing would encode, decode or turn into "/". */
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@%/]*$/
/** "." and ".." segments (also percent-encoded) are resolved by URL parsing. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i
/** A query whose parameters come out the same with or without URL parsing: visible ASCII without "#". */
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/

export function parseTarget(target: string): Target {
  const mark = target.indexOf('?')
  const path = mark === -1 ? target : target.slice(0, mark)
  // With its "?": URLSearchParams drops one leading "?", and only that one.
  const search = mark === -1 ? '' : target.slice(mark)
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && PLAIN_QUERY.test(search)) {
    return { path, query: new URLSearchParams(search) }
  }
  let url: URL
  try {
    url = new URL(`http://localhost${target}`)
  } catch {
    throw new HttpError('invalid_request', 'the request URL is malformed')
  }
  return { path: url.pathname, query: url.searchParams }
}
