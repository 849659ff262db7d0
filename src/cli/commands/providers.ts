// `affiliate-kit providers events`: the payment-provider events received and what each did, so an
// operator can answer "why did this invoice not pay a commission?" from a shell.
import type { ListProviderEventsInput } from '../../core/schemas.js'
import { positiveInteger, type Command } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError } from '../errors.js'

export const providersEventsCommand: Command = {
  name: 'providers events',
  usage: 'affiliate-kit providers events [--provider stripe|paddle|lemon-squeezy] [--status applied|ignored|waiting|processing] [--reference <id>] [--limit 50] [--database <db>]',
  help: `Prints received provider events, newest first: received, provider, type, reference, status, detail.

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
    const { items, total } = await withProgram(values, (program) => program.providerEvents.list(filter))
    for (const event of items) {
      log([event.createdAt.toISOString(), event.provider, event.type, event.reference ?? '-', event.status, event.detail ?? ''].join('\t'))
    }
    log(`${items.length} of ${total} events`)
    return 0
  },
}
