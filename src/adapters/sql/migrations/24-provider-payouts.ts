// Migration 24: payouts sent through PayPal Payouts or Stripe Connect (docs/payouts.md "Automatic payouts").
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// One row per payout sent through a provider: where it stands there. The payout row's status
// (text, 'paid' until now) also takes 'processing' and 'failed'.
export const providerPayouts: Migration = {
  version: 24,
  name: 'provider payouts',
  statements: [
    `CREATE TABLE {s}.provider_payouts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        payout_id bigint NOT NULL REFERENCES {s}.payouts (id) ON DELETE CASCADE,
        affiliate_id bigint NOT NULL,
        provider text NOT NULL,
        state text NOT NULL,
        item_status text,
        reference text,
        destination text,
        reply text,
        updated_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX provider_payouts_payout_key ON {s}.provider_payouts (project_id, payout_id)`,
    `CREATE INDEX provider_payouts_processing_idx ON {s}.provider_payouts (project_id, affiliate_id) WHERE state = 'processing'`,
  ],
}
