// Express, with express.json() mounted first and the API under a sub-path:
// `PORT=8787 node --import tsx examples/express/server.ts` serves /affiliates-api/api/v1.
import type { AddressInfo } from 'node:net'
import express from 'express'
import { createHandler, toNodeHandler } from 'affiliate-kit/http'
import { exampleProgram, isMain } from '../shared.js'

export async function start(port = Number(process.env.PORT ?? 8787)) {
  const { program, key } = await exampleProgram()
  const app = express()
  // Other routes of the app may need a parsed body; toNodeHandler copes with it.
  app.use(express.json())
  // basePath is the full path the client sees: toNodeHandler reads req.originalUrl.
  app.use('/affiliates-api', toNodeHandler(createHandler(program, { basePath: '/affiliates-api/api/v1' })))
  const server = app.listen(port, '127.0.0.1')
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/affiliates-api/api/v1`
  return { url, key, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

if (isMain(import.meta.url)) {
  const { url, key } = await start()
  console.log(`listening on ${url}\nAPI key: ${key}`)
}
