// affiliate-kit/http: the REST handler, its Node adapter, and the request schemas.
export { createHandler } from './handler.js'
export type { FetchHandler, HandlerOptions } from './handler.js'
export { toNodeHandler } from './node.js'
export type { NodeHandler } from './node.js'
export type { RateLimitOptions } from './rate-limit.js'
export { STATUS_BY_CODE, HttpError } from './errors.js'
export type { HttpErrorCode } from './errors.js'
export * as schemas from './schemas.js'
