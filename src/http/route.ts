// What a route is, defined once: method, path, scope, the valibot schemas of its query, body and
// responses, and `run`, which gets the parsed query and body. The handler serves a table of these;
// the OpenAPI document, the typed client's types and the route tests all read the same table.
import * as v from 'valibot'
import type { AuditLog } from '../core/audit-log.js'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import { ValidationError } from '../core/errors.js'
import { validate } from '../core/schemas.js'
import type { SignInLinkMaker } from '../core/portal-sign-in.js'
import type { Scope } from '../core/types.js'
import { HttpError } from '../server/errors.js'
import { storableText } from '../server/text.js'
import type { Method } from '../server/router.js'
import type { ListPage } from './shapes/primary.js'
import type { ProviderEventReplayer } from './provider-events.js'
import type { TestDeliverySender } from './webhook-test.js'

/** A strict object schema: the form of every query and body schema. */
export type ObjectSchema = v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>

/** A documented response: its component name in the OpenAPI document and its schema. */
export interface ResponseDef {
  name: string
  schema: v.GenericSchema
}

/** Response schema per status; null for a 204 without body. */
export type Responses = Record<number, ResponseDef | null>

type Parsed<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined

export interface RouteContext<Query = unknown, Body = unknown> {
  /** The API of the project the key belongs to. */
  api: ProjectScope
  /** The webhook dispatcher handed to createHandler, or null (test deliveries are then refused). */
  webhooks: TestDeliverySender | null
  projectId: string
  params: Record<string, string>
  /** The query string, parsed by the route's query schema. */
  query: Query
  /** The JSON body, parsed by the route's body schema. */
  body: Body
  /** The admin console's audit log (createHandler option auditLog); null when not given. */
  auditLog: AuditLog | null
  /** Replays provider events (createHandler option providerEvents); null when not given. */
  providerEvents: ProviderEventReplayer | null
  /** The affiliate portal that makes sign-in links (createHandler option portal); null when not given. */
  portal: SignInLinkMaker | null
}

export interface RouteResult {
  status: number
  /** Omitted for 204. */
  body?: unknown
}

export interface RouteDef<
  M extends Method = Method,
  P extends string = string,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends ObjectSchema | undefined = ObjectSchema | undefined,
  R extends Responses = Responses,
> {
  method: M
  /** As the router matches it: /affiliates/:email */
  path: P
  scope: Scope
  summary: string
  /** Query string schema; without one the query string is ignored. */
  query?: Q
  /** Body schema; without one no body is read (no Content-Type needed). */
  body?: B
  responses: R
  /** Error statuses besides 401, 403 and 429, which every route can answer. */
  errors: readonly number[]
  /** Wire names of core input fields that are not simply their snake_case (`baseValue: 'amount'`). */
  fieldNames?: Record<string, string>
  /** Its answer holds a one-time secret, never kept for Idempotency-Key replays: the header is ignored. */
  secretAnswer?: true
  run(ctx: RouteContext<Parsed<Q>, Parsed<B>>): Promise<RouteResult>
}

/** What both shapes say alike of an operation (src/http/operations.ts). */
export type OperationInfo = Pick<RouteDef, 'method' | 'path' | 'scope' | 'summary' | 'errors'>

/** A route, its schema types kept for the OpenAPI document and the typed client. */
export function defineRoute<
  const M extends Method,
  const P extends string,
  Q extends ObjectSchema | undefined = undefined,
  B extends ObjectSchema | undefined = undefined,
  const R extends Responses = Responses,
>(route: RouteDef<M, P, Q, B, R>): RouteDef<M, P, Q, B, R> {
  return route
}

/** `GET /affiliates/:email`: how a route is named in the typed client and the tests. */
export type RouteKey<R> = R extends RouteDef<infer M, infer P> ? `${M} ${P}` : never

/** Validates request input; its issues name fields as the client sent them (the issue path), as is. */
function validateRequest<S extends v.GenericSchema>(schema: S, input: unknown, rootField: string): v.InferOutput<S> {
  try {
    return validate(schema, input, rootField)
  } catch (error) {
    if (error instanceof ValidationError) throw new HttpError('invalid_request', error.message, error.field)
    throw error
  }
}

export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  return validateRequest(schema, body, 'body')
}

export function parseQuery<S extends v.GenericSchema>(schema: S, query: URLSearchParams): v.InferOutput<S> {
  const input: Record<string, string> = {}
  for (const [key, value] of query) {
    if (key in input) throw new HttpError('invalid_request', `${key}: must be given once`, key)
    if (!storableText(value)) throw new HttpError('invalid_request', `${key}: must not contain NUL characters`, key)
    input[key] = value
  }
  return validateRequest(schema, input, 'query')
}

/** A positive integer path id; anything else is 400 naming the resource. */
export function pathId(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9]\d{0,14}$/.test(value)) throw new HttpError('invalid_request', `invalid ${what} id`, 'id')
  return Number(value)
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
