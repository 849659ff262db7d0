// HTTP errors: ONE table from error code to status, and HttpError for failures found by the HTTP
// layer itself (bad JSON, wrong content type, unknown route). A database that cannot be used right
// now, or writes that met concurrent ones past their retries, is a 503 (full disk: 507) with
// Retry-After. Anything else is a generic 500.
import { AffiliateError, BusyError, StorageFullError, StorageUnavailableError, type AffiliateErrorCode, type FieldNames } from '../core/model/errors.js'

export type HttpErrorCode =
  | AffiliateErrorCode
  | 'authentication_error'
  | 'permission_denied'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limit_exceeded'
  | 'server_error'
  | 'not_implemented'
  | 'service_unavailable'
  | 'insufficient_storage'

export const STATUS_BY_CODE: Record<HttpErrorCode, number> = {
  invalid_request: 400,
  authentication_error: 401,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  server_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  insufficient_storage: 507,
}

export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly field?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'HttpError'
  }

  get status(): number {
    return STATUS_BY_CODE[this.code]
  }
}

/** A failure as the shapes render it: known errors keep their message, the rest become generic. */
export interface ErrorInfo {
  status: number
  code: HttpErrorCode
  message: string
  field: string | null
  headers?: Record<string, string>
}

/**
 * The failure as the shapes render it. Core errors name input fields through `name` (their wire
 * names: snake_case by default, a route's own names where it says so).
 */
export function errorInfo(error: unknown, name: FieldNames = snakeField): ErrorInfo | null {
  if (error instanceof HttpError) {
    return { status: error.status, code: error.code, message: error.message, field: error.field ?? null, ...(error.headers ? { headers: error.headers } : {}) }
  }
  const storage = storageErrorInfo(error)
  if (storage) return storage
  if (error instanceof AffiliateError && error.code in STATUS_BY_CODE) {
    const retry = error instanceof BusyError ? { headers: { 'Retry-After': String(error.retryAfter) } } : {}
    return { status: STATUS_BY_CODE[error.code], code: error.code, message: error.describe(name), field: error.field ? name(error.field) : null, ...retry }
  }
  return null
}

/**
 * A database that cannot be used right now (StorageUnavailableError: 503) or whose disk is full
 * (StorageFullError: 507), with Retry-After; null for any other error. Nothing was committed, so
 * the client may send the request again.
 */
export function storageErrorInfo(error: unknown): ErrorInfo | null {
  if (error instanceof StorageUnavailableError) {
    const message = `the database is unavailable (${error.message}); nothing was saved, retry after ${error.retryAfterSeconds} s`
    return { status: 503, code: 'service_unavailable', message, field: null, headers: { 'Retry-After': String(error.retryAfterSeconds) } }
  }
  if (error instanceof StorageFullError) {
    const message = `${error.message}; nothing was saved, retry after ${error.retryAfterSeconds} s`
    return { status: 507, code: 'insufficient_storage', message, field: null, headers: { 'Retry-After': String(error.retryAfterSeconds) } }
  }
  return null
}

export const GENERIC_ERROR: ErrorInfo = { status: 500, code: 'server_error', message: 'internal server error', field: null }

const CAMEL = /([a-z0-9])([A-Z])/g

/** `baseValue` -> `base_value`, `wiseDetails.accountId` -> `wise_details.account_id`. */
export function snakeField(field: string): string {
  return field.replace(CAMEL, '$1_$2').toLowerCase()
}
