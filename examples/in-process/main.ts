// In-process use, no HTTP server: call the program directly, or send a Request to the handler
// (handy in tests and in serverless functions). `node --import tsx examples/in-process/main.ts`
import { createHandler } from 'affiliate-kit/http'
import { exampleProgram, isMain } from '../shared.js'

export async function run() {
  const { program, key } = await exampleProgram()

  // 1. The program API: camelCase inputs, money as decimal strings.
  const affiliate = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
  const { conversion, attribution } = await program.conversions.create({ type: 'purchase', referralCode: 'ANN1', email: 'customer@example.com', baseValue: '49.00' })

  // 2. The REST API without a socket.
  const handler = createHandler(program)
  const response = await handler(
    new Request('http://local/api/v1/affiliates/ann%40example.com', { headers: { authorization: `Bearer ${key}` } }),
  )
  const rest = (await response.json()) as { data: { unpaid_earnings: string } }
  return { affiliate, conversion, attribution, unpaidEarnings: rest.data.unpaid_earnings }
}

if (isMain(import.meta.url)) console.log(await run())
