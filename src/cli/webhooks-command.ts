// `affiliate-kit webhooks deliveries <endpoint-id> [--status failed]` and `affiliate-kit webhooks
// retry <delivery-id>`: the delivery log of the default project's endpoints, and manual retries
// (the delivery becomes due now; a server on the same database sends it on its next pass).
import type { AffiliateProgram } from '../index.js'
import { ConfigError } from './config.js'

export const WEBHOOKS_USAGE = `  affiliate-kit webhooks deliveries <endpoint-id> [--status pending|delivering|succeeded|failed] [--database ...]
  affiliate-kit webhooks retry <delivery-id> [--database ...]`

const HEADER = ['id', 'event', 'status', 'attempts', 'last_status', 'next_attempt_at', 'created_at', 'last_error']

function numericId(value: string | undefined, usage: string): number {
  const id = Number(value)
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw new ConfigError(`${usage} needs a numeric id; got "${value ?? ''}"`)
  return id
}

async function listDeliveries(program: AffiliateProgram, endpointArg: string | undefined, status: string | undefined, log: (line: string) => void) {
  const endpointId = numericId(endpointArg, 'webhooks deliveries <endpoint-id>')
  await program.webhooks.get(endpointId)
  const page = await program.webhooks.deliveries({ endpointId, ...(status ? { status: status as 'failed' } : {}) })
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

/** Runs `webhooks <sub> <arg>`; resolves with the exit code. */
export async function webhooksCommand(
  program: AffiliateProgram,
  sub: string | undefined,
  arg: string | undefined,
  options: { status?: string | undefined; log: (line: string) => void },
): Promise<number> {
  if (sub === 'deliveries') {
    await listDeliveries(program, arg, options.status, options.log)
    return 0
  }
  if (sub === 'retry') {
    const id = numericId(arg, 'webhooks retry <delivery-id>')
    await program.webhooks.retry(id)
    options.log(`delivery ${id} is due now; a running server sends it on its next pass (or the next server to start)`)
    return 0
  }
  options.log(`usage:\n${WEBHOOKS_USAGE}`)
  return 2
}
