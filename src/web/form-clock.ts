// Signed "form shown at" stamps (docs/onboarding.md "Bots"): a public form carries the time it was
// drawn, signed with a key the browser never sees, so a submission can be refused when it comes
// back faster than a person types or after the stamp has expired. The key is random per project
// and kept in the keyed-state store, so every process sharing a database signs and checks alike.
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'

/** The key is five random 48-bit numbers (the store keeps numbers): 240 bits. */
const KEY_PARTS = 5

export type StampCheck = { ok: true; ageMs: number } | { ok: false; reason: 'invalid' | 'expired' }

export interface FormClock {
  /** A stamp of `now` for a form's hidden field. */
  stamp(now: Date): Promise<string>
  /** Whether `stamp` was made here, and how long ago; `invalid` for a forged or malformed one. */
  check(stamp: string | null, now: Date, maxAgeMs: number): Promise<StampCheck>
}

export function formClock(state: KeyedStateStore, scope: string): FormClock {
  let key: Promise<Buffer> | null = null
  const keyOf = () =>
    (key ??= (async () => {
      const parts: number[] = []
      for (let part = 0; part < KEY_PARTS; part += 1) {
        const stored = await state.update(`form-clock:${scope}:${part}`, { kind: 'initialize', value: randomInt(0, 2 ** 48 - 1) })
        parts.push(stored.state!)
      }
      return createHash('sha256').update(parts.join(':')).digest()
    })().catch((error: unknown) => {
      key = null
      throw error
    }))
  const signature = async (ms: string) => createHmac('sha256', await keyOf()).update(`${scope}:${ms}`).digest('base64url')
  return {
    async stamp(now) {
      const ms = String(now.getTime())
      return `${ms}.${await signature(ms)}`
    },
    async check(stamp, now, maxAgeMs) {
      const match = /^([0-9]{1,15})\.([A-Za-z0-9_-]{43})$/.exec(stamp ?? '')
      if (!match) return { ok: false, reason: 'invalid' }
      const expected = Buffer.from(await signature(match[1]!))
      const given = Buffer.from(match[2]!)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' }
      const ageMs = now.getTime() - Number(match[1])
      if (ageMs < 0 || ageMs > maxAgeMs) return { ok: false, reason: 'expired' }
      return { ok: true, ageMs }
    },
  }
}
