// A child process paying through PayPal on a shared PostgreSQL schema, so a test can kill -9 it
// while PayPal is creating the batch and start it again.
// Usage: node --import tsx test/support/payouts/paypal-child.ts <json args>
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../../src/index.js'
import { payPalClient } from '../../../src/payouts/paypal/client.js'
import { payPalPayouts } from '../../../src/payouts/paypal/payouts.js'
import { CLIENT_ID, CLIENT_SECRET } from './paypal-fake.js'

const args = JSON.parse(process.argv[2]!) as { schema: string; project: string; baseUrl: string; command: 'pay' | 'sync'; affiliate?: string; amount?: string }
const storage = postgresStorage({ connectionString: process.env.DATABASE_URL!, schema: args.schema, max: 2 })
const program = await createAffiliateProgram({ storage, project: args.project })
const paypal = payPalPayouts(program, payPalClient({ baseUrl: args.baseUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
const result = args.command === 'pay' ? [await paypal.pay({ affiliate: args.affiliate!, amount: args.amount! })] : await paypal.sync()
console.log(JSON.stringify(result.map((sent) => ({ payoutId: sent.payoutId, state: sent.state, itemStatus: sent.itemStatus, reference: sent.reference }))))
await program.close()
