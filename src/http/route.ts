// What a REST operation is, defined once (`defineOperation`: method, path, scope, summary, errors,
// the schemas both shapes share and `run`, which returns the program's result), what a shape adds
// to it (`Codec`: its own schemas, the input it decodes, the records it answers with), and the
// route both make (`RouteDef`). The handler serves routes; the OpenAPI document, the typed
// client's types and the route tests all read the same table (routes/index.ts).
import * as v from 'valibot'
import type { AuditLog } from '../core/ports/audit-log.js'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import { ValidationError } from '../core/model/errors.js'
import { validate } from '../core/model/schemas.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import type { Scope } from '../core/model/types.js'
import { HttpError } from '../server/errors.js'
import { storableText } from '../server/text.js'
import type { Method } from '../server/router.js'
import type { PayoutRunService, ProviderEventReplayer, TestDeliverySender } from './route-services.js'

/** A strict object schema: the form of every query and body schema. */
export type ObjectSchema = v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>

/** A documented response: its component name in the OpenAPI document and its schema. */
export interface ResponseDef {
  name: string
  schema: v.GenericSchema
  /** @default 'application/json'; several: one of them, as asked (an image as SVG or PNG) */
  contentType?: string | readonly string[]
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
  /** Runs payout runs through the configured providers (createHandler option payoutRuns); null when not given. */
  payoutRuns?: PayoutRunService | null
  /** The request's Accept header ('' when absent). */
  accept?: string
}

export interface RouteResult {
  status: number
  /** Omitted for 204. */
  body?: unknown
  /** An answer that is not JSON (a CSV export asked for with Accept), sent as it is. */
  text?: TextBody
  /** An answer of bytes (an image), sent as they are. */
  bytes?: BytesBody
}

/** A body sent as text of its own type instead of JSON. */
export class TextBody {
  constructor(
    readonly contentType: string,
    readonly content: string,
  ) {}
}

/** A body sent as bytes of their own type (a PNG image) instead of JSON. */
export class BytesBody {
  constructor(
    readonly contentType: string,
    readonly content: Uint8Array,
  ) {}
}

export interface RouteDef<
  M extends Method = Method,
  P extends string = string,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends ObjectSchema | undefined = ObjectSchema | undefined,
  R extends Responses = Responses,
> {
  /** The OpenAPI operationId, on a route made from an operation (its id). */
  id?: string
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
  /** A POST that writes nothing (a preview): an Idempotency-Key header is ignored, so no claim is kept. */
  writesNothing?: true
  /** It erases data or pays money, beyond what a DELETE says of itself (the MCP tools mark it destructive). */
  destructive?: true
  run(ctx: RouteContext<Parsed<Q>, Parsed<B>>): Promise<RouteResult>
}


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

/** A page of a list: where it starts, how long it may be, and how many there are in all. */
export interface ListPage {
  total: number
  limit: number
  offset: number
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

/** How a shape reads what the operations share: affiliate path segments and list windows. */
export interface ShapeRules {
  /** An affiliate path segment: an email, or whatever else the shape accepts for one. */
  affiliateRef(segment: string | undefined): number | string
  /** The limit and offset a list asks the core for. */
  window(query: { limit?: number | undefined; offset?: number | undefined }): { limit?: number | undefined; offset?: number | undefined }
}

/** What an operation's `run` gets: the request, the input its shape decoded, and the shape's rules. */
export interface OperationContext<Query = unknown, Body = unknown, In = undefined> extends RouteContext<Query, Body>, ShapeRules {
  input: In
}

/** The context of an operation that takes `In`, decoded by each shape's codec. */
export type Given<In> = OperationContext<unknown, unknown, In>

/** A REST operation, defined once for every shape. */
export interface Operation<
  Id extends string = string,
  M extends Method = Method,
  P extends string = string,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends ObjectSchema | undefined = ObjectSchema | undefined,
  In = any,
  Out = any,
> {
  /** The OpenAPI operationId. */
  id: Id
  method: M
  path: P
  scope: Scope
  summary: string
  /** Error statuses besides 401, 403 and 429, which every route can answer. */
  errors: readonly number[]
  /** The query schema, when every shape reads the same query. */
  query?: Q
  /** The body schema, when every shape reads the same body. */
  body?: B
  /** The success status. @default 200 */
  status?: number
  /** Its answer holds a one-time secret, never kept for Idempotency-Key replays: the header is ignored. */
  secretAnswer?: true
  /** A POST that writes nothing (a preview): an Idempotency-Key header is ignored, so no claim is kept. */
  writesNothing?: true
  /** It erases data or pays money, beyond what a DELETE says of itself (the MCP tools mark it destructive). */
  destructive?: true
  run(ctx: OperationContext<Parsed<Q>, Parsed<B>, In>): Promise<Out>
}

export function defineOperation<
  const Id extends string,
  const M extends Method,
  const P extends string,
  Q extends ObjectSchema | undefined = undefined,
  B extends ObjectSchema | undefined = undefined,
  In = undefined,
  Out = unknown,
>(operation: Operation<Id, M, P, Q, B, In, Out>): Operation<Id, M, P, Q, B, In, Out> {
  return operation
}

/** What one shape makes of an operation: its own schemas, the input it decodes and the answer it writes. */
export interface Codec<
  In = any,
  Out = any,
  Q extends ObjectSchema | undefined = ObjectSchema | undefined,
  B extends ObjectSchema | undefined = ObjectSchema | undefined,
  R extends Responses = Responses,
  OQ = unknown,
  OB = unknown,
> {
  /** Instead of the operation's summary, where this shape serves it differently. */
  summary?: string
  /** Instead of the operation's query schema. */
  query?: Q
  /** Instead of the operation's body schema. */
  body?: B
  responses: R
  /** Wire names of core input fields that are not simply their snake_case (`baseValue: 'amount'`). */
  fieldNames?: Record<string, string>
  /** The operation's input from the parsed request. */
  input?(request: RouteContext<Q extends ObjectSchema ? Parsed<Q> : OQ, B extends ObjectSchema ? Parsed<B> : OB>): In | Promise<In>
  /** The answer's body from the operation's result; without one, the answer has no body (204). */
  output?(result: Out, ctx: RouteContext): unknown
  /** The answer's status, where the result decides it. @default the operation's status */
  status?(result: Out): number
}

/** A shape's codec for an operation, typed by it. */
export function codec<
  OQ extends ObjectSchema | undefined,
  OB extends ObjectSchema | undefined,
  In,
  Out,
  Q extends ObjectSchema | undefined = undefined,
  B extends ObjectSchema | undefined = undefined,
  const R extends Responses = Responses,
>(
  _operation: Operation<string, Method, string, OQ, OB, In, Out>,
  shapeCodec: Codec<NoInfer<In>, NoInfer<Out>, Q, B, R, Parsed<NoInfer<OQ>>, Parsed<NoInfer<OB>>>,
): Codec<In, Out, NoInfer<Q>, NoInfer<B>, NoInfer<R>> {
  return shapeCodec
}

/**
 * Written out field by field, on purpose: spreading the request's context and the shape into a
 * new object on every request cost a quarter of a GET's CPU time (measured with `npm run bench`).
 */
function operationContext(ctx: RouteContext<any, any>, rules: ShapeRules, input: unknown): Parameters<Operation['run']>[0] {
  return {
    api: ctx.api,
    webhooks: ctx.webhooks,
    projectId: ctx.projectId,
    params: ctx.params,
    query: ctx.query,
    body: ctx.body,
    auditLog: ctx.auditLog,
    providerEvents: ctx.providerEvents,
    portal: ctx.portal,
    payoutRuns: ctx.payoutRuns ?? null,
    affiliateRef: rules.affiliateRef,
    window: rules.window,
    input,
  }
}

/** The route an operation makes in a shape. */
export function operationRoute(operation: Operation, shapeCodec: Codec, rules: ShapeRules): RouteDef {
  const query = shapeCodec.query ?? operation.query
  const body = shapeCodec.body ?? operation.body
  return {
    id: operation.id,
    method: operation.method,
    path: operation.path,
    scope: operation.scope,
    summary: shapeCodec.summary ?? operation.summary,
    ...(query ? { query } : {}),
    ...(body ? { body } : {}),
    responses: shapeCodec.responses,
    errors: operation.errors,
    ...(shapeCodec.fieldNames ? { fieldNames: shapeCodec.fieldNames } : {}),
    ...(operation.secretAnswer ? { secretAnswer: true as const } : {}),
    ...(operation.writesNothing ? { writesNothing: true as const } : {}),
    ...(operation.destructive ? { destructive: true as const } : {}),
    async run(ctx) {
      const decoded = shapeCodec.input?.(ctx)
      const input = decoded instanceof Promise ? await decoded : decoded
      const result = await operation.run(operationContext(ctx, rules, input))
      const status = shapeCodec.status?.(result) ?? operation.status ?? 200
      if (!shapeCodec.output) return { status }
      const output = shapeCodec.output(result, ctx)
      const body = output instanceof Promise ? await output : output
      if (body instanceof TextBody) return { status, text: body }
      return body instanceof BytesBody ? { status, bytes: body } : { status, body }
    },
  }
}
