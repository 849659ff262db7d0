// How a refused console action reads: the HTTP status and the message of a core error, for the
// generic "Not done" page and for forms that show the error beside what was typed.
import { AffiliateError, ConflictError, NotFoundError, ValidationError } from '../core/model/errors.js'

export interface Refusal {
  status: 400 | 404 | 409
  message: string
  /** The input field at fault (the core's name), when one is. */
  field: string | null
}

export function refusalOf(error: AffiliateError): Refusal {
  const status = error instanceof NotFoundError ? 404 : error instanceof ConflictError ? 409 : 400
  return { status, message: error instanceof ValidationError ? error.describe((field) => field) : error.message, field: error.field ?? null }
}

/** A form shows invalid input and conflicts itself; anything else (a missing record, a bug) is not its to show. */
export function formRefusal(error: unknown): Refusal | null {
  return error instanceof AffiliateError && !(error instanceof NotFoundError) ? refusalOf(error) : null
}
