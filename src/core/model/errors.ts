// Typed errors of the core. The HTTP layer maps `code` to a status with one table.

export type AffiliateErrorCode = 'invalid_request' | 'not_found' | 'conflict' | 'service_unavailable'

/** Names an input field: the core's own (camelCase) name, or the wire name a caller such as the HTTP layer uses. */
export type FieldNames = (field: string) => string

/** A message; one that names input fields does so through `name`, so each caller can show its own names. */
export type ErrorMessage = string | ((name: FieldNames) => string)

const ownNames: FieldNames = (field) => field

export class AffiliateError extends Error {
  private readonly text: ErrorMessage

  constructor(
    readonly code: AffiliateErrorCode,
    message: ErrorMessage,
    /** The input field at fault, when one is. */
    readonly field?: string,
  ) {
    super(typeof message === 'string' ? message : message(ownNames))
    this.text = message
    this.name = 'AffiliateError'
  }

  /** The message with every input field it mentions named by `name`. */
  describe(name: FieldNames): string {
    return typeof this.text === 'string' ? this.text : this.text(name)
  }
}

export class ValidationError extends AffiliateError {
  constructor(field: string, message: ErrorMessage) {
    super('invalid_request', message, field)
    this.name = 'ValidationError'
  }
}

/** No exchange rate from one currency to the other is available (yet): a 400 naming the field. */
export class NoExchangeRateError extends ValidationError {
  constructor(
    field: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(field, `no exchange rate available for ${from}->${to}`)
    this.name = 'NoExchangeRateError'
  }
}

export class NotFoundError extends AffiliateError {
  constructor(message: string, field?: string) {
    super('not_found', message, field)
    this.name = 'NotFoundError'
  }
}

export class ConflictError extends AffiliateError {
  constructor(message: string, field?: string) {
    super('conflict', message, field)
    this.name = 'ConflictError'
  }
}

/**
 * The write met concurrent writes on the same rows more often than it retries (docs/api.md
 * "Concurrency"): nothing was stored, and the same request may be sent again after `retryAfter`
 * seconds. A 503 with Retry-After.
 */
export class BusyError extends AffiliateError {
  constructor(
    message: string,
    readonly retryAfter = 1,
  ) {
    super('service_unavailable', message)
    this.name = 'BusyError'
  }
}

/**
 * The database cannot be used right now: its connection was lost (a restart, a failover,
 * `pg_terminate_backend`), a bounded wait ran out (statement, lock or pool checkout timeout) or
 * it refuses new sessions. Nothing was committed by the call that failed; the caller may retry
 * after `retryAfterSeconds`. The HTTP surfaces answer 503 with Retry-After.
 */
export class StorageUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'StorageUnavailableError'
  }
}

/**
 * The disk the embedded database writes to has less free space than it needs: writes are refused
 * before they start (a database that runs out of disk mid-write stops answering altogether);
 * reads go on. The HTTP surfaces answer 507 with Retry-After.
 */
export class StorageFullError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 30,
  ) {
    super(message)
    this.name = 'StorageFullError'
  }
}
