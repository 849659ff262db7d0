// `affiliate-kit providers events`: the payment-provider events received and what each did, so an
// operator can answer "why did this invoice not pay a commission?" from a shell; `providers
// replay <id>` applies one of them again (a payment that waited for an exchange rate, say), with
// the exchange rates of the server's --config file.
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import type { ListProviderEventsInput } from '../../core/model/schemas.js'
import { PROVIDER_NAMES } from '../../core/model/types.js'
import { positiveInteger, type Command } from '../command.js'
import { loadConfig } from '../config.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError } from '../errors.js'
import { tableExchangeRates } from '../exchange-rates.js'
import { keySocketClient } from '../key-socket.js'

export const providersEventsCommand: Command = {
  name: 'providers events',
  usage: `affiliate-kit providers events [--provider ${PROVIDER_NAMES.join('|')}] [--status applied|ignored|waiting|processing] [--reference <id>] [--limit 50] [--database <db>]`,
  help: `Prints received provider events, newest first: id, received, provider, type, reference, status, detail.
While a server runs on the same embedded PGlite directory, the events come through it.

  --provider <name>  only this provider's events
  --status <s>       only events with this outcome
  --reference <id>   only events about this payment (invoice, transaction or order id)
  --limit <n>        how many (default 50)
${DATABASE_HELP}`,
  options: {
    provider: { type: 'string' },
    status: { type: 'string' },
    reference: { type: 'string' },
    limit: { type: 'string' },
    database: { type: 'string' },
  },
  async run(values, _positionals, log) {
    const limitText = (values.limit as string | undefined) ?? '50'
    const limit = positiveInteger(limitText)
    if (limit === null) throw new CliError(`--limit must be a positive integer; got "${limitText}"`)
    const filter = {
      limit,
      ...(values.provider ? { provider: values.provider } : {}),
      ...(values.status ? { status: values.status } : {}),
      ...(values.reference ? { reference: values.reference } : {}),
    } as ListProviderEventsInput
    const { items, total } = await withProgram(values, (program) => program.providerEvents.list(filter)).catch(async (error: unknown) => {
      // Embedded PGlite held by a running server: the events come through it (key-socket.ts).
      if (!(error instanceof DataDirLockedError)) throw error
      const server = await keySocketClient(error.dataDir)
      if (!server) throw error
      return server.providerEvents(filter)
    })
    for (const event of items) {
      log([event.id, event.createdAt.toISOString(), event.provider, event.type, event.reference ?? '-', event.status, event.detail ?? ''].join('\t'))
    }
    log(`${items.length} of ${total} events`)
    return 0
  },
}

export const providersReplayCommand: Command = {
  name: 'providers replay',
  usage: 'affiliate-kit providers replay <event-id> [--config <file>] [--database <db>]',
  help: `Applies a received provider event again, from what was recorded of it: one that waits (for an
exchange rate, a customer's referral added since) or was ignored. The events it unblocks follow.
An applied event is not applied again, so replaying twice credits nothing twice. <event-id> is the
id \`providers events\` prints first. With embedded PGlite, stop the server first (one process
owns the data directory).

  --config <file>    the server's config file: its "exchangeRates" apply (its settings are not saved)
${DATABASE_HELP}`,
  options: { database: { type: 'string' }, config: { type: 'string' } },
  positionals: ['event-id'],
  async run(values, [given], log) {
    const id = positiveInteger(given!)
    if (id === null) throw new CliError(`providers replay <event-id> needs the numeric id "providers events" prints; got "${given}"`)
    const table = loadConfig(values.config as string | undefined).exchangeRates
    const rates = table ? { exchangeRates: tableExchangeRates(table) } : {}
    const { event, message } = await withProgram(values, (program) => program.providerEvents.replay(id), rates)
    log(message)
    log([event.id, event.provider, event.type, event.reference ?? '-', event.status, event.detail ?? ''].join('\t'))
    return 0
  },
}
