// Plain node:http: `PORT=8787 node --import tsx examples/node-http/server.ts` (PORT=0 picks a free port).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHandler, toNodeHandler } from 'affiliate-kit/http'
import { exampleProgram, isMain } from '../shared.js'

export async function start(port = Number(process.env.PORT ?? 8787)) {
  const { program, key } = await exampleProgram()
  const server = createServer(toNodeHandler(createHandler(program)))
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  return { url, key, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

if (isMain(import.meta.url)) {
  const { url, key } = await start()
  console.log(`listening on ${url}\nAPI key: ${key}`)
}
