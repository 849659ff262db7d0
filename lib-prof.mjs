import { createServer } from 'node:http'
const dist = process.env.DIST ?? '/work/wt-lead/dist'
const { memoryStorage } = await import(`${dist}/adapters/memory.js`)
const { createAffiliateProgram } = await import(`${dist}/index.js`)
const { createHandler, toNodeHandler } = await import(`${dist}/http/index.js`)
const program = await createAffiliateProgram({ storage: memoryStorage() })
const { key } = await program.keys.create()
await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN1' })
const buyer = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB1' })
const server = createServer(toNodeHandler(createHandler(program, { rateLimit: { limit: 1_000_000_000 } })))
process.on('SIGINT', () => process.exit(0))
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port, key, buyer: buyer.id })))
