// A child process paying through Stripe Connect on a shared PostgreSQL schema, so a test can
// kill -9 it while Stripe makes the transfer and start it again.
// Usage: node --import tsx test/support/payouts/stripe-payer-child.ts <json args>
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram } from '../../../src/index.js'
import { stripeTransfers } from '../../../src/payouts/stripe/transfers.js'
import { SECRET_KEY } from './stripe-fake.js'

const args = JSON.parse(process.argv[2]!) as { schema: string; project: string; baseUrl: string; command: 'pay' | 'sync'; affiliate?: string; amount?: string; destination?: string }
const storage = postgresStorage({ connectionString: process.env.DATABASE_URL!, schema: args.schema, max: 2 })
const program = await createAffiliateProgram({ storage, project: args.project })
const stripe = stripeTransfers(program, { secretKey: SECRET_KEY, baseUrl: args.baseUrl })
const result = args.command === 'pay' ? [await stripe.pay({ affiliate: args.affiliate!, amount: args.amount!, destination: args.destination! })] : await stripe.sync()
console.log(JSON.stringify(result.map((sent) => ({ payoutId: sent.payoutId, state: sent.state, itemStatus: sent.itemStatus, reference: sent.reference }))))
await program.close()
