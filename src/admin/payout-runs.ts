// What the console needs to start payout runs (createAdminConsole's `payoutRuns`:
// payoutRunner(program, { paypal, stripe }) from affiliate-kit/payouts; the standalone server
// passes its payoutProviders). Without it, the Pay now page says how to configure them.
import type { PayoutRunResult } from '../core/payouts/payout-runs.js'

export interface ConsolePayoutRuns {
  /** Runs (or, dry, plans) a payout run of the console's project now. */
  run(input: { dryRun: boolean }): Promise<PayoutRunResult>
}
