// What a route is: method, path, required scope, and a handler from parsed request to result.
// Plus the parsing helpers every route file shares (body and query validation, path ids).
import * as v from 'valibot'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import { validate } from '../core/schemas.js'
import type { Scope } from '../core/types.js'
import { AffiliateError } from '../core/errors.js'
import { HttpError } from './errors.js'
import { storableText } from './text.js'
import type { Method } from './router.js'
import type { ListPage } from './shapes/primary.js'

export interface RouteContext {
  /** The API of the project the key belongs to. */
  api: ProjectScope
  program: AffiliateProgram
  projectId: string
  params: Record<string, string>
  query: URLSearchParams
  /** The parsed JSON body (POST and PUT only). */
  body: unknown
  /** Whether the handler serves the alternative shape (docs/api.md). */
  alt: boolean
}

export interface RouteResult {
  status: number
  /** Omitted for 204. */
  body?: unknown
}

export interface RouteDef {
  method: Method
  path: string
  scope: Scope
  /** false: a POST that takes no body (none is read; no Content-Type needed). @default true for POST and PUT */
  body?: false
  handle(ctx: RouteContext): Promise<RouteResult>
}

export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  return validate(schema, body, 'body')
}

export function parseQuery<S extends v.GenericSchema>(schema: S, query: URLSearchParams): v.InferOutput<S> {
  const input: Record<string, string> = {}
  for (const [key, value] of query) {
    if (key in input) throw new HttpError('invalid_request', `${key}: must be given once`, key)
    if (!storableText(value)) throw new HttpError('invalid_request', `${key}: must not contain NUL characters`, key)
    input[key] = value
  }
  return validate(schema, input, 'query')
}

/** A positive integer path id; anything else is 400 naming the resource. */
export function pathId(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9]\d{0,14}$/.test(value)) throw new HttpError('invalid_request', `invalid ${what} id`, 'id')
  return Number(value)
}

/** An affiliate path segment: an email, or in the alternative shape also `aff_12` / `12`. */
export function affiliateRef(value: string | undefined, alt: boolean): number | string {
  const segment = value ?? ''
  if (alt && /^(aff_)?[1-9]\d{0,14}$/.test(segment)) return Number(segment.replace(/^aff_/, ''))
  return segment
}

/** Limit default and maximum for the alternative shape's lists (docs/api.md "The alternative shape": 20, max 100). */
export function alternativeWindow(query: { limit?: number | undefined; offset?: number | undefined }) {
  return { limit: Math.min(query.limit ?? 20, 100), offset: query.offset ?? 0 }
}

export function page(result: { total: number; limit: number; offset: number }): ListPage {
  return { total: result.total, limit: result.limit, offset: result.offset }
}

/** Drops undefined members: the core treats a present key as "supplied". */
export function defined<T extends object>(input: T): T {
  const output: Partial<T> = {}
  for (const key in input) if (input[key] !== undefined) output[key] = input[key]
  return output as T
}

/**
 * Reports core errors under the request body's own field names (the core speaks camelCase;
 * the alternative bodies say `amount` for baseValue, `customer_email` for email, ...).
 */
export async function renameFields<T>(work: Promise<T>, names: Record<string, string>): Promise<T> {
  try {
    return await work
  } catch (error) {
    const name = error instanceof AffiliateError && error.field ? names[error.field] : undefined
    if (error instanceof AffiliateError && error.field && name) {
      throw new HttpError(error.code, error.message.split(error.field).join(name), name)
    }
    throw error
  }
}
