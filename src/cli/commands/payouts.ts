// `affiliate-kit payouts run [--dry-run]`: pays every due affiliate through PayPal Payouts or
// Stripe Connect now, once per period (docs/payouts.md "Payout runs"). On embedded PGlite a running
// server holds the data directory, so the run goes through that server and its providers
// (key-socket.ts); otherwise the command opens the database and uses payoutProviders of --config.
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import type { PayoutRunResult } from '../../core/payouts/payout-runs.js'
import { payPalClient } from '../../payouts/paypal/client.js'
import { payoutRunner } from '../../payouts/runs.js'
import type { Command, OptionValues } from '../command.js'
import { loadConfig } from '../config.js'
import { DATABASE_HELP, databaseTarget, openProgram } from '../database.js'
import { CliError } from '../errors.js'
import { keySocketClient } from '../key-socket.js'

async function runFromDatabase(values: OptionValues, dryRun: boolean): Promise<PayoutRunResult> {
  const configPath = values.config as string | undefined
  const providers = loadConfig(configPath).payoutProviders
  // Opened first: a server holding the PGlite directory (DataDirLockedError) runs it with its own providers.
  const { program } = await openProgram(databaseTarget(values.database as string | undefined).target)
  try {
    if (!providers?.paypal && !providers?.stripe) {
      throw new CliError(`payouts run needs the server's config file with payoutProviders (--config <file>)${configPath ? `: ${configPath} has none` : ''}`)
    }
    const { paypal, stripe } = providers
    const runner = payoutRunner(program, {
      paypal: paypal ? payPalClient({ baseUrl: paypal.baseUrl ?? 'https://api-m.paypal.com', clientId: paypal.clientId, clientSecret: paypal.clientSecret }) : null,
      stripe: stripe ? { secretKey: stripe.secretKey, ...(stripe.baseUrl ? { baseUrl: stripe.baseUrl } : {}) } : null,
    })
    return await runner.run({ dryRun })
  } finally {
    await program.close()
  }
}

async function payoutRun(values: OptionValues, dryRun: boolean): Promise<PayoutRunResult> {
  try {
    return await runFromDatabase(values, dryRun)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    const server = await keySocketClient(error.dataDir)
    if (server?.payoutRun) return server.payoutRun({ dryRun })
    throw new CliError(`${error.dataDir} is in use by process ${error.pid}, which does not take payout runs: stop it, run this command, then start it again`)
  }
}

/** The run as lines: one per affiliate, then the counts. */
export function runLines(result: PayoutRunResult): string[] {
  const lines = result.items.map((item) =>
    [item.affiliateEmail, `${item.amount} ${item.currency}`, item.provider ?? '-', item.outcome + (item.resumed ? ' (resumed)' : ''), item.payoutId === null ? '' : `payout ${item.payoutId}`, item.reason ?? '']
      .filter((cell) => cell !== '')
      .join('  '),
  )
  const { counts } = result
  const summary = result.dryRun
    ? `payout run ${result.period} (dry run, nothing sent): ${counts.wouldSend} to send, ${counts.processing} to send again, ${counts.skipped} skipped`
    : `payout run ${result.period}: ${counts.paid} paid, ${counts.processing} processing, ${counts.failed} failed, ${counts.skipped} skipped`
  return [...lines, result.items.length === 0 ? `${summary} (nobody is due)` : summary]
}

export const payoutsRunCommand: Command = {
  name: 'payouts run',
  usage: 'affiliate-kit payouts run [--dry-run] [--json] [--config <file>] [--database <db>]',
  help: `Pays every affiliate due now through PayPal Payouts or Stripe Connect (its Stripe connected
account, else its PayPal email), once per period: an affiliate a run of this month already paid is
not paid again, whoever runs it. --dry-run prints the batch it would send and sends nothing.
A server running on the same embedded PGlite directory runs it with its own providers; otherwise
pass the server's config file (payoutProviders).

  --dry-run          print the batch, send nothing
  --json             print the run as JSON
  --config <file>    the server's config file (payoutProviders)
${DATABASE_HELP}`,
  options: { 'dry-run': { type: 'boolean' }, json: { type: 'boolean' }, config: { type: 'string' }, database: { type: 'string' } },
  positionals: [],
  async run(values, _positionals, log) {
    const result = await payoutRun(values, values['dry-run'] === true)
    if (values.json) log(JSON.stringify(result, null, 2))
    else for (const line of runLines(result)) log(line)
    return 0
  },
}
