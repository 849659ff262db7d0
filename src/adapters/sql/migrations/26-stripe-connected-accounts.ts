// Migration 26: the Stripe Connect account an affiliate is paid to (docs/payouts.md "Stripe Connect").
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const stripeConnectedAccounts: Migration = {
  version: 26,
  name: 'stripe connected accounts',
  statements: [`ALTER TABLE {s}.affiliates ADD COLUMN stripe_account_id text`],
}
