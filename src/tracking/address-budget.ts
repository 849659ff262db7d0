// How many new visitors one client address may add in a day (docs/tracking.md "Forged clicks"):
// an allowance per address over the keyed-state store (GCRA, so every process shares it and a
// burst cannot pass the bound). Only a visit that counts spends it. IPv6 addresses count by
// their /64, the block one subscriber usually holds.
import ipaddr from 'ipaddr.js'
import { gcra } from '../http/gcra.js'
import type { KeyedStateStore } from '../http/keyed-state.js'

const DAY_MS = 86_400_000

/** The address as counted: IPv4 as is (also when IPv4-mapped), IPv6 as its /64; anything unparsable as given. */
export function addressBlock(address: string): string {
  if (!ipaddr.isValid(address)) return address
  const parsed = ipaddr.process(address)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`
}

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
