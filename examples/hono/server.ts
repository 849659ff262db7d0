// Hono on Node (@hono/node-server): the fetch handler is mounted as is.
// `PORT=8787 node --import tsx examples/hono/server.ts`
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createHandler } from 'affiliate-kit/http'
import { exampleProgram, isMain } from '../shared.js'

export async function start(port = Number(process.env.PORT ?? 8787)) {
  const { program, key } = await exampleProgram()
  const api = createHandler(program)
  const app = new Hono()
  app.get('/health', (c) => c.text('ok'))
  app.all('/api/*', (c) => api(c.req.raw))
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(started))
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  return { url, key, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

if (isMain(import.meta.url)) {
  const { url, key } = await start()
  console.log(`listening on ${url}\nAPI key: ${key}`)
}
