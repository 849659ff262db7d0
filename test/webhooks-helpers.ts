// Test helpers for webhook delivery: real local HTTP receivers (node:http on port 0) and a program
// over the memory storage with private networks allowed (receivers listen on 127.0.0.1).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAffiliateProgram, testClock, type AffiliateProgram, type TestClock } from '../src/index.js'
import { memoryStorage } from '../src/adapters/memory.js'
import type { WebhookRunnerOptions } from '../src/webhooks/index.js'

export interface ReceivedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  /** The raw body exactly as received. */
  body: string
  at: number
}

export type Reply = (request: ReceivedRequest, response: ServerResponse) => void

export interface Receiver {
  url: string
  port: number
  requests: ReceivedRequest[]
  /** Replaces how the receiver answers. @default 200 'ok' */
  reply(handler: Reply): void
  close(): Promise<void>
}

export const answer =
  (status: number, text = '', headers: Record<string, string> = {}): Reply =>
  (_request, response) => {
    response.writeHead(status, headers)
    response.end(text)
  }

export async function startReceiver(handler: Reply = answer(200, 'ok')): Promise<Receiver> {
  let current = handler
  const requests: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      }
      requests.push(received)
      current(received, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    reply(next) {
      current = next
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export async function webhookProgram(
  options: { clock?: TestClock; allowPrivateNetworks?: boolean; webhooks?: WebhookRunnerOptions } = {},
): Promise<{ program: AffiliateProgram; clock: TestClock }> {
  const clock = options.clock ?? testClock(new Date())
  const program = await createAffiliateProgram({
    storage: memoryStorage(),
    clock,
    settings: { allowPrivateNetworks: options.allowPrivateNetworks ?? true },
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  })
  return { program, clock }
}
