// The keyed-state store: what the HTTP handler keeps between requests. Leased claims on an
// Idempotency-Key (claim / renew / settle / release) and an atomically updated number per key
// for the rate limiter. Every storage adapter implements it as `storage.keyedState`, shared by
// every process of a SQL database; createHandler falls back to one in its own memory.

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
   * Atomically applies `decide` to the number stored under `key` (null when none) and stores its
   * result's `state`; concurrent calls for the same key are serialized.
   */
  update<R>(key: string, decide: (state: number | null) => { state: number; result: R }): Promise<R>
}
