// Paths and paging particular to the alternative shape (docs/api.md "The alternative shape").
import { AffiliateError } from '../../core/errors.js'
import { HttpError } from '../errors.js'

/** An affiliate path segment: an email, `aff_12` or `12`. */
export function affiliateRef(value: string | undefined): number | string {
  const segment = value ?? ''
  return /^(aff_)?[1-9]\d{0,14}$/.test(segment) ? Number(segment.replace(/^aff_/, '')) : segment
}

/** Limit default and maximum of the alternative shape's lists: 20, at most 100. */
export function alternativeWindow(query: { limit?: number | undefined; offset?: number | undefined }) {
  return { limit: Math.min(query.limit ?? 20, 100), offset: query.offset ?? 0 }
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
