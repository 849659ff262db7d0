// Turns adapter uniqueness violations into the 409s users see.
import { ConflictError } from '../model/errors.js'
import { UniqueViolation, type UniqueConstraint } from './storage.js'

const CONFLICTS: Record<UniqueConstraint, [field: string, message: string]> = {
  project_name: ['name', 'a project with this name already exists'],
  affiliate_email: ['email', 'an affiliate with this email already exists'],
  affiliate_external_id: ['externalId', 'an affiliate with this external id already exists'],
  affiliate_referral_code: ['referralCode', 'this referral code is already taken'],
  link_key: ['key', 'this link key is already taken'],
  referral_email: ['email', 'a referred user with this email already exists'],
  conversion_reference: ['reference', 'a conversion with this reference already exists'],
  coupon_code: ['code', 'this coupon code already exists'],
  api_key_hash: ['key', 'API key collision'],
  provider_event: ['eventId', 'this provider event was already received'],
}

/** Runs work, reporting a UniqueViolation as a ConflictError naming the field. */
export async function withConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof UniqueViolation) {
      const [field, message] = CONFLICTS[error.constraint]
      throw new ConflictError(message, field)
    }
    throw error
  }
}

/** Defaults and bounds of list windows (docs/api.md "Responses and pagination"): above the maximum is clamped. */
export function listWindow(input: { limit?: number | undefined; offset?: number | undefined }, defaultLimit: number, maxLimit: number) {
  return { limit: Math.min(input.limit ?? defaultLimit, maxLimit), offset: input.offset ?? 0 }
}
