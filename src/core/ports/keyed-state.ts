// The keyed-state store: what the HTTP handler keeps between requests. Leased claims on an
// Idempotency-Key (claim / renew / settle / release) and a number per key, changed in one atomic
// step (the rate limiter's GCRA time, the form clock's key parts). Every storage adapter
// implements it as `storage.keyedState`, shared by every process of a SQL database;
// createHandler falls back to one in its own memory.

/** A claim on a key. `response` is null until the claim is settled with its answer. */
export interface KeyClaim {
  projectId: string
  key: string
  /** What the request was (method, path, body digest): a repeat must match it. */
  fingerprint: string
  response: { status: number; body: string } | null
  /** When the claim was taken; it identifies the claim to renew, settle or release. */
  createdAt: Date
  /** The lease of an unsettled claim: after it, a repeat of the same request may take the key over. */
  leaseUntil: Date
  /** When the key is free again, settled or not. */
  expiresAt: Date
}

export interface KeyedStateStore {
  /**
   * Stores `claim` and returns null when its key is free: no claim, an expired one
   * (expiresAt <= claim.createdAt), or an unsettled claim of the same fingerprint whose lease
   * ran out (leaseUntil <= claim.createdAt: its process died or hung). Otherwise returns the
   * standing claim and writes nothing.
   */
  claim(claim: KeyClaim): Promise<KeyClaim | null>
  /** Moves the lease of the unsettled claim taken at `claimedAt` (its request is still running). */
  renew(projectId: string, key: string, claimedAt: Date, leaseUntil: Date): Promise<void>
  /** Stores the answer of the claim taken at `claimedAt`; nothing when another claim replaced it. */
  settle(projectId: string, key: string, claimedAt: Date, response: { status: number; body: string }): Promise<void>
  /** Forgets the unsettled claim taken at `claimedAt` so the request may be tried again. */
  release(projectId: string, key: string, claimedAt: Date): Promise<void>
  /**
   * Makes `change` to the number stored under `key` in one atomic step: concurrent changes of a
   * key apply one after another, and a SQL store holds the key's row for one statement only
   * (docs/scaling.md). Returns the number stored afterwards (null when none) and whether the
   * change was made.
   */
  update(key: string, change: KeyedNumberChange): Promise<KeyedNumber>
}

/** What `KeyedStateStore.update` does to a key's number. */
export type KeyedNumberChange =
  /**
   * The GCRA's step (server/gcra.ts): from the stored time or `now`, whichever is later, adds
   * `interval`, and stores the sum unless it is more than `windowMs` ahead of `now`.
   */
  | { kind: 'take'; now: number; interval: number; windowMs: number }
  /** Subtracts `amount` from the stored number; nothing when none is stored. */
  | { kind: 'giveBack'; amount: number }
  /** Stores `value` when nothing is stored yet. */
  | { kind: 'initialize'; value: number }

export interface KeyedNumber {
  state: number | null
  changed: boolean
}
