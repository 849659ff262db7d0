// The helpers provider modules read their events with, and the provider-neutral mapping they
// produce (its types live in the core: src/core/provider-events/mapping.ts).
export type { AliasAction, CustomerAction, MappedEvent, PaidAction, PaidLine, ProviderAction, RefundedAction, SubscriptionEndedAction, TrialStartedAction } from '../core/provider-events/mapping.js'
export { revivedMapping, storedMapping } from '../core/provider-events/mapping.js'

/** A signed event whose body is not the object shape the mapping expects. */
export class MalformedEvent extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MalformedEvent'
  }
}

/** Reads an integer amount from a number or integer text; throws MalformedEvent otherwise. */
export function minorUnits(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
  if (typeof value === 'string' && /^-?\d{1,18}$/.test(value)) return BigInt(value)
  throw new MalformedEvent(`${field} must be an integer amount`)
}

/** The string at a field, or null when absent or empty. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/** An id that may be an expanded object ({ id }). */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return text(value)
  if (value && typeof value === 'object' && 'id' in value) return text((value as { id: unknown }).id)
  return null
}

/** The names that are there, once each, in order. */
export function namesOf(...names: Array<string | null>): string[] {
  return [...new Set(names.filter((name): name is string => name !== null))]
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The object at `value`, or MalformedEvent naming `field`. */
export function record(value: unknown, field: string): Record<string, unknown> {
  if (!isRecord(value)) throw new MalformedEvent(`${field} must be an object`)
  return value
}

