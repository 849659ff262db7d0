// The port that prunes what grows without bound (docs/operations.md "Retention"): answered
// Idempotency-Keys past their expiry, the visitor-day marks that count a click once per visitor
// and day, the fraud signals of visitors (a visitor is one day's hash, docs/fraud.md), web sessions and sign-in tokens past their end, and webhook delivery attempts of
// deliveries that succeeded or failed. Each call deletes at most `limit` rows, so a pass is a
// series of short statements that hold no lock for long.

export type PrunedKind = 'idempotency_keys' | 'visitor_marks' | 'visitor_signals' | 'sessions' | 'delivery_attempts'

export const PRUNED_KINDS: readonly PrunedKind[] = ['idempotency_keys', 'visitor_marks', 'visitor_signals', 'sessions', 'delivery_attempts']

export interface RetentionStore {
  /**
   * Deletes up to `limit` rows of `kind` that are done with by `before`: keys and sessions that
   * expired by then, visitor marks and visitor signals of days before its UTC day, attempts made before it (of
   * deliveries that succeeded or failed). Resolves with how many went.
   */
  prune(kind: PrunedKind, before: Date, limit: number): Promise<number>
}

/** A storage object that carries a retention store (every adapter of this package does). */
export interface WithRetention {
  readonly retention: RetentionStore
}
