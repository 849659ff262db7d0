// Migration 20: what the fraud rules record and read (docs/fraud.md): a conversion's review
// reason, its click's visitor and its card's fingerprint; and visitor signals, the visitors seen
// as the affiliate itself (the portal) or arriving from a paid ad.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const fraudSignals: Migration = {
  version: 20,
  name: 'fraud signals: review reasons, click visitors, card fingerprints, visitor signals',
  statements: [
    `ALTER TABLE {s}.conversions ADD COLUMN review_reason text`,
    `ALTER TABLE {s}.conversions ADD COLUMN click_visitor text`,
    `ALTER TABLE {s}.conversions ADD COLUMN card_fingerprint text`,
    `CREATE INDEX conversions_visitor_signups_idx ON {s}.conversions (project_id, click_visitor) WHERE click_visitor IS NOT NULL AND type = 'signup'`,
    `CREATE INDEX conversions_card_fingerprint_idx ON {s}.conversions (project_id, card_fingerprint) WHERE card_fingerprint IS NOT NULL`,
    `CREATE TABLE {s}.visitor_signals (
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        visitor text NOT NULL,
        kind text NOT NULL,
        day date NOT NULL,
        PRIMARY KEY (project_id, affiliate_id, visitor, kind)
      )`,
  ],
}
