// Migration 30: the rules a customer's first purchase was made under (commission.grandfather)
// move beside the referral, into a table of their own: every conversion reads its customer's
// referral, and only a grandfathered renewal reads these, about 2 kB of JSON with a price list.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const referralTerms: Migration = {
  version: 30,
  name: 'referral terms beside the referral',
  statements: [
    `CREATE TABLE {s}.referral_terms (
        referral_id bigint PRIMARY KEY REFERENCES {s}.referrals (id) ON DELETE CASCADE,
        project_id text NOT NULL,
        terms jsonb NOT NULL
      )`,
    `INSERT INTO {s}.referral_terms (referral_id, project_id, terms)
       SELECT id, project_id, commission_terms FROM {s}.referrals WHERE commission_terms IS NOT NULL`,
    `ALTER TABLE {s}.referrals DROP COLUMN commission_terms`,
  ],
}
