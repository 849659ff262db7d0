// A mail dispatcher process for the crash tests: PostgreSQL (a schema) or PGlite (a data
// directory), sending to the test's SMTP server until "stop" arrives on stdin or the parent kills it.
// Usage: node --import tsx dispatcher-child.ts '{"postgresSchema":"..."|"pgliteDir":"...","smtpUrl":"smtp://..."}'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createMailDispatcher, smtpMailer } from '../../../src/email/index.js'

interface Args {
  postgresSchema?: string
  pgliteDir?: string
  smtpUrl: string
  leaseMs: number
  concurrency: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args
const storage = args.postgresSchema
  ? postgresStorage({ connectionString: process.env.DATABASE_URL!, schema: args.postgresSchema, max: 4 })
  : pgliteStorage({ dataDir: args.pgliteDir! })
await storage.ping()
const dispatcher = createMailDispatcher({
  storage,
  mailer: smtpMailer(args.smtpUrl),
  from: 'Acme Partners <partners@acme.example>',
  leaseMs: args.leaseMs,
  concurrency: args.concurrency,
  retryDelaysSeconds: Array(20).fill(1),
})
dispatcher.start({ pollIntervalMs: 50 })
console.log('ready')

process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  if (!chunk.includes('stop')) return
  void (async () => {
    await dispatcher.stop()
    await storage.close()
    process.exit(0)
  })()
})
