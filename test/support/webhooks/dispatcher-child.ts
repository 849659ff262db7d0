// A dispatcher process for the multi-process webhook tests: postgres storage on the given schema,
// a dispatcher started until a "stop" line arrives on stdin (or the parent kills it).
// Usage: node --import tsx dispatcher-child.ts '{"connection":{"connectionString":"postgres://..."},"schema":"...","concurrency":16}'
import { postgresStorage, type PostgresStorageOptions } from '../../../src/adapters/postgres/index.js'
import { createWebhookDispatcher } from '../../../src/index.js'

interface Args {
  /** The connection string and its route's options (test/support/sql/pg-schema.ts routeConnection). */
  connection: { connectionString: string } & Pick<PostgresStorageOptions, 'pooler'>
  schema: string
  concurrency?: number
  leaseMs?: number
  timeoutMs?: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const storage = postgresStorage({ ...args.connection, schema: args.schema, max: 4 })
// Ready once the schema is up to date (the first query migrates).
await storage.ping()
const dispatcher = createWebhookDispatcher({
  storage,
  ...(args.leaseMs ? { leaseMs: args.leaseMs } : {}),
  ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
})
dispatcher.start({ concurrency: args.concurrency ?? 16, pollIntervalMs: 25 })
console.log('ready')

process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  if (!chunk.includes('stop')) return
  void (async () => {
    await dispatcher.stop()
    await storage.close()
    console.log('stopped')
    process.exit(0)
  })()
})
