// How many new visitors one client address may add in a day (docs/tracking.md "Forged clicks"):
// an allowance per address over the keyed-state store (GCRA, so every process shares it and a
// burst cannot pass the bound). Only a visit that counts spends it. The key names the address's
// block (web/client-address.ts addressBlock: an IPv6 /64 as one).
import { gcra } from '../server/gcra.js'
import type { KeyedStateStore } from '../core/keyed-state.js'

const DAY_MS = 86_400_000

export interface AddressBudget {
  /** Spends one new visitor of the address's daily allowance; false when none is left. */
  take(key: string, now: number): Promise<boolean>
  /** Returns what take() spent, for a visit that did not count after all (a visitor already counted today). */
  giveBack(key: string): Promise<void>
}

export function addressBudget(store: KeyedStateStore, visitorsPerDay: number): AddressBudget {
  const interval = DAY_MS / visitorsPerDay
  return {
    take: (key, now) => store.update(key, (state) => {
      const { state: next, result } = gcra(state, now, visitorsPerDay, DAY_MS)
      return { state: next, result: result.allowed }
    }),
    giveBack: (key) => store.update(key, (state) => ({ state: state === null ? 0 : state - interval, result: undefined })),
  }
}
