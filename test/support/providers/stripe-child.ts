// A child process for the two-process test: its own pool on the shared schema, its own Stripe
// handler; says "ready", waits for "go", posts the signed request it was given several times at
// once and prints the answers' statuses as one JSON line.
// Usage: node --import tsx test/support/providers/stripe-child.ts <json args>
import { createInterface } from 'node:readline'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../../src/index.js'
import { stripeHandler } from '../../../src/providers/stripe/index.js'

const args = JSON.parse(process.argv[2]!) as { schema: string; project: string; secret: string; body: string; header: string; times: number }
const storage = postgresStorage({ connectionString: process.env.DATABASE_URL!, schema: args.schema, max: 10 })
const program = await createAffiliateProgram({ storage, project: args.project })
const handler = stripeHandler({ program, storage, webhookSecret: args.secret })

const lines = createInterface({ input: process.stdin })
const go = new Promise<void>((resolve) => lines.once('line', () => resolve()))
console.log('ready')
await go
const answers = await Promise.all(
  Array.from({ length: args.times }, async () => {
    const response = await handler(new Request('https://shop.example/hook', { method: 'POST', body: args.body, headers: { 'Stripe-Signature': args.header } }))
    return response.status
  }),
)
console.log(JSON.stringify(answers))
lines.close()
await program.close()
