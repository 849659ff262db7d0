// How many new visitors one client address may add in a day (docs/tracking.md "Forged clicks"):
// an allowance per address counted by the one rate limit (server/rate-limit.ts: GCRA over the
// keyed-state store, so every process shares it and a burst cannot pass the bound). Only a visit
// that counts spends it. The key names the address's block (web/client-address.ts addressBlock:
// an IPv6 /64 as one).
import { keyedLimit } from '../server/rate-limit.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'

const DAY_MS = 86_400_000

export interface AddressBudget {
  /** Spends one new visitor of the address's daily allowance; false when none is left. */
  take(key: string, now: number): Promise<boolean>
  /** Returns what take() spent, for a visit that did not count after all (a visitor already counted today). */
  giveBack(key: string): Promise<void>
}

export function addressBudget(store: KeyedStateStore, visitorsPerDay: number): AddressBudget {
  const counted = keyedLimit(store, visitorsPerDay, DAY_MS)
  return {
    take: async (key, now) => (await counted.take(key, now)).allowed,
    giveBack: counted.giveBack,
  }
}
