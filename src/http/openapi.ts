// The OpenAPI 3.1 document of each shape, generated from the route table (routes/index.ts): the
// valibot schemas the handler validates requests with and those of its responses.
import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import type { RouteDef } from './route.js'
import SHAPES, { primaryRoutes } from './routes/index.js'
import type { ShapeName } from './shapes/shape.js'

export type { ShapeName }

type Schema = v.GenericSchema

/** A documented route: every route of the tables is one. */
export type Operation = RouteDef

/** The primary shape's routes, as the OpenAPI document describes them. */
export const OPERATIONS: readonly Operation[] = primaryRoutes

const ERROR_TEXT: Record<number, string> = {
  400: 'Missing or invalid parameters (the message names the field)',
  401: 'Missing or invalid API key',
  403: 'The API key lacks the scope',
  404: 'Not found (also for rows of other projects)',
  409: 'Duplicate or conflicting resource, or the server is not set up for the request (the message says what to set)',
  413: 'Body larger than the limit',
  415: 'Content-Type is not application/json',
  429: 'Rate limited; see Retry-After',
  501: 'The handler was created without what the route needs (a webhook dispatcher, a provider event replayer)',
  503: 'A provider or the database cannot answer now; see Retry-After',
}

/** JSON Schema of a request schema, as clients send it (queries: strings with a pattern). */
export function inputJsonSchema(schema: Schema) {
  return toJsonSchema(schema, { typeMode: 'input', errorMode: 'ignore' })
}

/** JSON Schema of a response schema (the form the tests compare against). */
export function responseJsonSchema(schema: Schema) {
  return toJsonSchema(schema, { errorMode: 'ignore' })
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

/** The names of an operation's path parameters, in order: `['webhookId', 'deliveryId']`. */
export const pathParamNames = (operation: Operation): string[] => [...operation.path.matchAll(/:(\w+)/g)].map(([, name]) => name!)

/** The OpenAPI operationId of an operation: its id, else made of its method and path (`postAffiliatesEmailPortalLink`). */
export const operationId = (operation: Operation): string =>
  operation.id ?? `${operation.method.toLowerCase()}${operation.path.replace(/[/:-]+(\w)/g, (_, letter: string) => letter.toUpperCase())}`

function operationObject(operation: Operation) {
  const pathParams = pathParamNames(operation).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(name === 'email' ? { description: 'URL-encoded email address' } : {}),
  }))
  const queryParams = Object.entries(operation.query?.entries ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema: inputJsonSchema(schema as Schema),
  }))
  const responses: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = response
      ? { description: 'Success', content: Object.fromEntries([response.contentType ?? 'application/json'].flat().map((type) => [type, { schema: { $ref: `#/components/schemas/${response.name}` } }])) }
      : { description: 'Deleted; no body' }
  }
  for (const status of [...operation.errors, 401, 403, 429]) {
    responses[String(status)] = {
      description: ERROR_TEXT[status],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    }
  }
  return {
    summary: operation.summary,
    operationId: operationId(operation),
    description: `Scope: \`${operation.scope}\`.`,
    parameters: [...pathParams, ...queryParams],
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: inputJsonSchema(operation.body) } } } }
      : {}),
    responses,
  }
}

/** The OpenAPI 3.1 document for a handler mounted at basePath. @default basePath '/api/v1', shape 'primary' */
export function openApiDocument(basePath = '/api/v1', shape: ShapeName = 'primary') {
  const { routes, errorSchema, title } = SHAPES[shape]
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of routes) {
    const path = openApiPath(operation.path)
    paths[path] ??= {}
    paths[path][operation.method.toLowerCase()] = operationObject(operation)
  }
  paths['/openapi.json'] = {
    get: { summary: 'This document', operationId: 'getOpenApi', security: [], responses: { 200: { description: 'The OpenAPI document' } } },
  }
  const schemas: Record<string, unknown> = { Error: responseJsonSchema(errorSchema) }
  for (const operation of routes) {
    for (const response of Object.values(operation.responses)) if (response) schemas[response.name] = responseJsonSchema(response.schema)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'affiliate-kit',
      version: '1',
      description: `Affiliate program REST API (${title}). Money in records is exact: decimal strings, or JSON numbers with the currency minor-unit digits.`,
    },
    servers: [{ url: basePath }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key: rgk_...' } },
      schemas,
    },
  }
}
