// The OpenAPI 3.1 document of the primary shape, generated from the valibot schemas the handler
// validates requests with (src/http/schemas.ts) and those of its responses (response-schemas.ts).
import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import type { Scope } from '../core/types.js'
import * as R from './response-schemas.js'
import * as S from './schemas.js'
import { listProviderEventsQuery } from './routes/provider-events.js'

type Schema = v.GenericSchema
type ObjectSchema = v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** As the handler's router writes it: /affiliates/:email */
  path: string
  scope: Scope
  summary: string
  query?: ObjectSchema
  body?: ObjectSchema
  /** Response schema per status; null for a 204 without body. */
  responses: Record<number, { name: string; schema: Schema } | null>
  errors: number[]
}

const ref = (name: string, schema: Schema) => ({ name, schema })
const A = ref('AffiliateResponse', R.item(R.affiliateRecord))
const AC = ref('AffiliateCreatedResponse', R.item(R.affiliateCreatedRecord))
const AL = ref('AffiliateList', R.list(R.affiliateRecord))
const C = ref('ConversionResponse', R.item(R.conversionRecord))
const CC = ref('ConversionCreatedResponse', R.conversionCreated)
const CL = ref('ConversionList', R.list(R.conversionRecord))
const RF = ref('ReferralResponse', R.item(R.referralRecord))
const RL = ref('ReferralList', R.list(R.referralRecord))
const CP = ref('CouponResponse', R.item(R.couponRecord))
const CPL = ref('CouponList', R.list(R.couponRecord))
const P = ref('PayoutResponse', R.item(R.payoutRecord))
const PL = ref('PayoutList', R.list(R.payoutRecord))
const K = ref('ClickResponse', R.item(R.clickRecord))
const D = ref('DeliveryResponse', R.item(R.deliveryDetailRecord))
const DL = ref('DeliveryList', R.list(R.deliveryRecord))
const PEL = ref('ProviderEventList', R.list(R.providerEventRecord))

/** Every route of the primary shape under the base path. */
export const OPERATIONS: Operation[] = [
  { method: 'GET', path: '/affiliates', scope: 'affiliates:read', summary: 'List affiliates', query: S.listAffiliatesQuery, responses: { 200: AL }, errors: [400] },
  { method: 'POST', path: '/affiliates', scope: 'affiliates:write', summary: 'Create an affiliate', body: S.createAffiliateBody, responses: { 201: AC }, errors: [400, 409] },
  { method: 'GET', path: '/affiliates/:email', scope: 'affiliates:read', summary: 'Retrieve an affiliate with stats', responses: { 200: A }, errors: [400, 404] },
  { method: 'PUT', path: '/affiliates/:email', scope: 'affiliates:write', summary: 'Update an affiliate', body: S.updateAffiliateBody, responses: { 200: A }, errors: [400, 404, 409] },
  { method: 'DELETE', path: '/affiliates/:email', scope: 'affiliates:write', summary: 'Delete an affiliate and its data', responses: { 204: null }, errors: [400, 404] },
  { method: 'GET', path: '/conversions', scope: 'conversions:read', summary: 'List conversions', query: S.listConversionsQuery, responses: { 200: CL }, errors: [400] },
  { method: 'POST', path: '/conversions', scope: 'conversions:write', summary: 'Create a conversion (200 with duplicate: true for a repeated reference)', body: S.createConversionBody, responses: { 200: CC, 201: CC }, errors: [400, 404, 409] },
  { method: 'GET', path: '/conversions/:id', scope: 'conversions:read', summary: 'Retrieve a conversion', responses: { 200: C }, errors: [400, 404] },
  { method: 'PUT', path: '/conversions/:id', scope: 'conversions:write', summary: 'Update a conversion (paid, status, refunds...)', body: S.updateConversionBody, responses: { 200: C }, errors: [400, 404, 409] },
  { method: 'DELETE', path: '/conversions/:id', scope: 'conversions:write', summary: 'Delete a conversion', responses: { 204: null }, errors: [400, 404] },
  { method: 'GET', path: '/referrals', scope: 'referrals:read', summary: 'List referred users', query: S.listReferralsQuery, responses: { 200: RL }, errors: [400] },
  { method: 'POST', path: '/referrals', scope: 'referrals:write', summary: 'Create a referred user', body: S.createReferralBody, responses: { 201: RF }, errors: [400, 404, 409] },
  { method: 'GET', path: '/referrals/:email', scope: 'referrals:read', summary: 'Retrieve a referred user', responses: { 200: RF }, errors: [400, 404] },
  { method: 'PUT', path: '/referrals/:email', scope: 'referrals:write', summary: 'Update a referred user', body: S.updateReferralBody, responses: { 200: RF }, errors: [400, 404, 409] },
  { method: 'GET', path: '/coupons', scope: 'coupons:read', summary: 'List coupons', query: S.listCouponsQuery, responses: { 200: CPL }, errors: [400] },
  { method: 'POST', path: '/coupons', scope: 'coupons:write', summary: 'Create a coupon', body: S.createCouponBody, responses: { 201: CP }, errors: [400, 404, 409] },
  { method: 'GET', path: '/coupons/:id', scope: 'coupons:read', summary: 'Retrieve a coupon', responses: { 200: CP }, errors: [400, 404] },
  { method: 'PUT', path: '/coupons/:id', scope: 'coupons:write', summary: 'Update a coupon', body: S.updateCouponBody, responses: { 200: CP }, errors: [400, 404, 409] },
  { method: 'DELETE', path: '/coupons/:id', scope: 'coupons:write', summary: 'Delete a coupon', responses: { 204: null }, errors: [400, 404] },
  { method: 'GET', path: '/payouts', scope: 'payouts:read', summary: 'List payouts, newest first', query: S.listPayoutsQuery, responses: { 200: PL }, errors: [400] },
  { method: 'POST', path: '/payouts', scope: 'payouts:write', summary: 'Record a payout made outside the service', body: S.createPayoutBody, responses: { 201: P }, errors: [400, 404] },
  { method: 'GET', path: '/payouts/:id', scope: 'payouts:read', summary: 'Retrieve a payout', responses: { 200: P }, errors: [400, 404] },
  { method: 'GET', path: '/provider-events', scope: 'conversions:read', summary: 'List received payment-provider events and what each did, newest first', query: listProviderEventsQuery, responses: { 200: PEL }, errors: [400] },
  { method: 'POST', path: '/clicks', scope: 'referrals:write', summary: 'Count a click on a referral link', body: S.trackClickBody, responses: { 201: K }, errors: [400, 404] },
  { method: 'GET', path: '/webhooks/:webhookId/deliveries', scope: 'webhooks:read', summary: "List a webhook endpoint's deliveries, newest first", query: S.listDeliveriesQuery, responses: { 200: DL }, errors: [400, 404] },
  { method: 'GET', path: '/webhooks/:webhookId/deliveries/:deliveryId', scope: 'webhooks:read', summary: 'Retrieve a delivery with its attempts', responses: { 200: D }, errors: [400, 404] },
  { method: 'POST', path: '/webhooks/:webhookId/deliveries/:deliveryId/retry', scope: 'webhooks:write', summary: 'Send a delivery again now (no body)', responses: { 202: D }, errors: [400, 404, 409] },
]

const ERROR_TEXT: Record<number, string> = {
  400: 'Missing or invalid parameters (the message names the field)',
  401: 'Missing or invalid API key',
  403: 'The API key lacks the scope',
  404: 'Not found (also for rows of other projects)',
  409: 'Duplicate or conflicting resource',
  413: 'Body larger than the limit',
  415: 'Content-Type is not application/json',
  429: 'Rate limited; see Retry-After',
}

/** JSON Schema of a request schema, as clients send it (queries: strings with a pattern). */
function inputJsonSchema(schema: Schema) {
  return toJsonSchema(schema, { typeMode: 'input', errorMode: 'ignore' })
}

/** JSON Schema of a response schema (the form the tests compare against). */
export function responseJsonSchema(schema: Schema) {
  return toJsonSchema(schema, { errorMode: 'ignore' })
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

function operationObject(operation: Operation) {
  const pathParams = [...operation.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
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
      ? { description: 'Success', content: { 'application/json': { schema: { $ref: `#/components/schemas/${response.name}` } } } }
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
    operationId: `${operation.method.toLowerCase()}${operation.path.replace(/[/:](\w)/g, (_, letter: string) => letter.toUpperCase())}`,
    description: `Scope: \`${operation.scope}\`.`,
    parameters: [...pathParams, ...queryParams],
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: inputJsonSchema(operation.body) } } } }
      : {}),
    responses,
  }
}

/** The OpenAPI 3.1 document for a handler mounted at basePath. @default basePath '/api/v1' */
export function openApiDocument(basePath = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of OPERATIONS) {
    const path = openApiPath(operation.path)
    paths[path] ??= {}
    paths[path][operation.method.toLowerCase()] = operationObject(operation)
  }
  paths['/openapi.json'] = {
    get: { summary: 'This document', operationId: 'getOpenApi', security: [], responses: { 200: { description: 'The OpenAPI document' } } },
  }
  const schemas: Record<string, unknown> = { Error: responseJsonSchema(R.errorBody) }
  for (const operation of OPERATIONS) {
    for (const response of Object.values(operation.responses)) if (response) schemas[response.name] = responseJsonSchema(response.schema)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'affiliate-kit',
      version: '1',
      description: 'Affiliate program REST API (primary shape). Money in records is exact: decimal strings, or JSON numbers with the currency minor-unit digits.',
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
