// The two ways route tests reach the handler: directly (a Request in process) and through a real
// node:http server built with toNodeHandler on a free port.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler, type FetchHandler } from '../../../src/http/index.js'

export interface Transport {
  name: string
  /** Returns a send function and a way to stop whatever was started. */
  start(handler: FetchHandler): Promise<{ send: (request: Request) => Promise<Response>; origin: string; stop(): Promise<void> }>
}

export const inProcess: Transport = {
  name: 'in-process',
  async start(handler) {
    return { send: handler, origin: 'http://test.local', stop: async () => {} }
  },
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export const nodeHttp: Transport = {
  name: 'node:http',
  async start(handler) {
    const server = createServer(toNodeHandler(handler))
    const origin = await listen(server)
    return {
      send: (request) => fetch(request),
      origin,
      stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    }
  },
}
