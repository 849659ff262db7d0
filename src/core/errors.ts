// Typed errors of the core. The HTTP layer maps `code` to a status with one table.

export type AffiliateErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'conflict'
  | 'authentication_error'
  | 'permission_denied'

export class AffiliateError extends Error {
  constructor(
    readonly code: AffiliateErrorCode,
    message: string,
    /** The input field at fault, when one is. */
    readonly field?: string,
  ) {
    super(message)
    this.name = 'AffiliateError'
  }
}

export class ValidationError extends AffiliateError {
  constructor(field: string, message: string) {
    super('invalid_request', message, field)
    this.name = 'ValidationError'
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
