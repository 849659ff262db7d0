// `affiliate-kit providers events`: the payment-provider events received and what each did, so an
// operator can answer "why did this invoice not pay a commission?" from a shell.
import { parseArgs } from 'node:util'
import { createAffiliateProgram } from '../index.js'
import type { ListProviderEventsInput } from '../core/schemas.js'
import { ConfigError } from './config.js'
import { openStorage } from './database.js'

export const PROVIDERS_USAGE = `  affiliate-kit providers events [--provider stripe|paddle|lemon-squeezy] [--status applied|ignored|waiting|processing] [--reference <id>] [--limit 50] [--database ...]`

/** Prints one line per event, newest first: received, provider, type, reference, status, detail. */
export async function providersCommand(argv: string[], log: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      database: { type: 'string' },
      provider: { type: 'string' },
      status: { type: 'string' },
      reference: { type: 'string' },
      limit: { type: 'string', default: '50' },
    },
  })
  if (positionals[0] !== 'events') throw new ConfigError(`usage:\n${PROVIDERS_USAGE}`)
  const limit = Number(values.limit)
  if (!Number.isSafeInteger(limit) || limit < 1) throw new ConfigError(`--limit must be a positive integer; got "${values.limit}"`)
  const { storage } = await openStorage(values.database)
  // Read only: the project's stored settings are left as they are.
  const program = await createAffiliateProgram({ storage })
  try {
    const filter = {
      limit,
      ...(values.provider ? { provider: values.provider } : {}),
      ...(values.status ? { status: values.status } : {}),
      ...(values.reference ? { reference: values.reference } : {}),
    } as ListProviderEventsInput
    const { items, total } = await program.providerEvents.list(filter)
    for (const event of items) {
      log([event.createdAt.toISOString(), event.provider, event.type, event.reference ?? '-', event.status, event.detail ?? ''].join('\t'))
    }
    log(`${items.length} of ${total} events`)
    return 0
  } finally {
    await program.close()
  }
}
