// `affiliate-kit webhooks deliveries <endpoint-id> [--status failed]` and `affiliate-kit webhooks
// retry <delivery-id>`: the delivery log of the default project's endpoints, and manual retries
// (the delivery becomes due now; a server on the same database sends it on its next pass).
import type { AffiliateProgram } from '../../index.js'
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../core/model/types.js'
import { positiveInteger, type Command } from '../command.js'
import { DATABASE_HELP, withProgram } from '../database.js'
import { CliError } from '../errors.js'

const HEADER = ['id', 'event', 'status', 'attempts', 'last_status', 'next_attempt_at', 'created_at', 'last_error']
const LOCKED_HELP = 'With embedded PGlite, stop the server first (one process owns the data directory).'

function numericId(value: string, what: string): number {
  const id = positiveInteger(value)
  if (id === null) throw new CliError(`${what} needs a numeric id; got "${value}"`)
  return id
}

async function listDeliveries(program: AffiliateProgram, endpointId: number, status: DeliveryStatus | undefined, log: (line: string) => void) {
  await program.webhooks.get(endpointId)
  const page = await program.webhooks.deliveries({ endpointId, ...(status ? { status } : {}) })
  log(HEADER.join('\t'))
  for (const delivery of page.items) {
    const attempts = delivery.attempts > 0 ? await program.webhooks.attempts(delivery.id) : []
    const lastError = attempts.at(-1)?.error ?? ''
    log(
      [
        delivery.id,
        delivery.eventType,
        delivery.status,
        delivery.attempts,
        delivery.lastStatusCode ?? '',
        delivery.nextAttemptAt?.toISOString() ?? '',
        delivery.createdAt.toISOString(),
        lastError,
      ].join('\t'),
    )
  }
  if (page.total > page.items.length) log(`(${page.items.length} newest of ${page.total} shown)`)
}

export const webhooksDeliveriesCommand: Command = {
  name: 'webhooks deliveries',
  usage: `affiliate-kit webhooks deliveries <endpoint-id> [--status ${DELIVERY_STATUSES.join('|')}] [--database <db>]`,
  help: `Prints the endpoint's 50 newest deliveries of the default project, tab separated.\n${LOCKED_HELP}\n\n  --status <s>       only deliveries in this status\n${DATABASE_HELP}`,
  options: { status: { type: 'string' }, database: { type: 'string' } },
  positionals: ['endpoint-id'],
  async run(values, [endpoint], log) {
    const endpointId = numericId(endpoint!, 'webhooks deliveries <endpoint-id>')
    const status = values.status as string | undefined
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
      throw new CliError(`--status must be ${DELIVERY_STATUSES.join(', ')}; got "${status}"`)
    }
    await withProgram(values, (program) => listDeliveries(program, endpointId, status as DeliveryStatus | undefined, log))
    return 0
  },
}

export const webhooksRetryCommand: Command = {
  name: 'webhooks retry',
  usage: 'affiliate-kit webhooks retry <delivery-id> [--database <db>]',
  help: `Makes a delivery due now; a server on the same database sends it on its next pass.\n${LOCKED_HELP}\n\n${DATABASE_HELP}`,
  options: { database: { type: 'string' } },
  positionals: ['delivery-id'],
  async run(values, [delivery], log) {
    const id = numericId(delivery!, 'webhooks retry <delivery-id>')
    await withProgram(values, (program) => program.webhooks.retry(id))
    log(`delivery ${id} is due now; a running server sends it on its next pass (or the next server to start)`)
    return 0
  },
}
