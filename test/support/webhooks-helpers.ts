// Test helpers for webhook delivery: real local HTTP receivers (node:http on port 0) and a program
// with its dispatcher over the memory storage, private networks allowed (receivers listen on 127.0.0.1).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAffiliateProgram, createWebhookDispatcher, testClock, type AffiliateProgram, type StoragePort, type TestClock, type WebhookDispatcher } from '../../src/index.js'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import type { DeliveryOptions } from '../../src/webhooks/index.js'

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

export async function startReceiver(handler: Reply = answer(200, 'ok'), port = 0): Promise<Receiver> {
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const bound = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
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

/** Polls `condition` every 50 ms until it holds; throws after `timeoutMs`. */
export async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 50))
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
  options: { clock?: TestClock; allowPrivateNetworks?: boolean; webhooks?: DeliveryOptions } = {},
): Promise<{ program: AffiliateProgram; clock: TestClock; dispatcher: WebhookDispatcher; storage: StoragePort }> {
  const clock = options.clock ?? testClock(new Date())
  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage, clock, settings: { allowPrivateNetworks: options.allowPrivateNetworks ?? true } })
  const dispatcher = createWebhookDispatcher({ storage, clock, ...options.webhooks })
  return { program, clock, dispatcher, storage }
}

/** Causes one referral_signed_up event. */
export async function signUp(program: AffiliateProgram, email = 'signup@example.com'): Promise<void> {
  const affiliate = await program.affiliates.create({ email: `aff-${email}` })
  await program.referrals.create({ email, affiliateId: affiliate.id })
}

/**
 * Drives one delivery through its automatic schedule with the test clock: dispatches, checks
 * nothing is sent early, moves the clock to the next attempt, and so on until it leaves `pending`.
 * Returns the clock times of the attempts.
 */
export async function runSchedule(program: AffiliateProgram, dispatcher: WebhookDispatcher, clock: TestClock, deliveryId: number): Promise<number[]> {
  const times: number[] = []
  for (let round = 0; round < 10; round++) {
    times.push(clock.now().getTime())
    if ((await dispatcher.dispatch()) !== 1) throw new Error(`round ${round}: expected one send`)
    const delivery = (await program.webhooks.deliveries()).items.find((item) => item.id === deliveryId)!
    if (delivery.status !== 'pending') return times
    clock.set(new Date(delivery.nextAttemptAt!.getTime() - 1))
    if ((await dispatcher.dispatch()) !== 0) throw new Error(`round ${round}: sent before nextAttemptAt`)
    clock.advance({ ms: 1 })
  }
  throw new Error('delivery never left pending')
}
