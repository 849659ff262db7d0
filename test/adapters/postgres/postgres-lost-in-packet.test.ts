// A connection ended in the same network packet that answers a statement (issue 51). PostgreSQL
// sends ReadyForQuery and, when the backend is terminated right then (a failover,
// pg_terminate_backend), its FATAL error in one TCP segment: pg reads both before any code that
// awaits the statement runs again, so the client must have an 'error' listener from checkout on,
// or the process ends on an unhandled 'error' event (CI saw it: `serve` died under the faults
// test). A proxy in front of a real PostgreSQL appends that FATAL to the answer of a connection's
// first statement, the SET of its bounded waits, so the race happens every time.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram, StorageUnavailableError, type AffiliateProgram } from '../../../src/index.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'

/** PostgreSQL's ErrorResponse for a terminated backend (protocol: 'E', length, fields, 0). */
function terminatedMessage(): Buffer {
  const fields = [['S', 'FATAL'], ['V', 'FATAL'], ['C', '57P01'], ['M', 'terminating connection due to administrator command']]
  const body = Buffer.concat([...fields.map(([code, value]) => Buffer.from(`${code}${value}\0`)), Buffer.from([0])])
  const head = Buffer.alloc(5)
  head.write('E', 0)
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

/**
 * Forwards to PostgreSQL. Once armed with `arm(n)`, on the next n connections the answer to the
 * client's simple query that SETs statement_timeout leaves with a FATAL in the same write, then
 * the connection ends. `cut()` ends the connections open now.
 */
async function terminatingProxy(host: string, port: number) {
  let left = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(port, host)
    sockets.add(client).add(upstream)
    let armed = false
    let pending = Buffer.alloc(0)
    const terminating = left-- > 0
    client.on('data', (chunk) => {
      if (terminating && chunk.includes('SET statement_timeout')) armed = true
      upstream.write(chunk)
    })
    upstream.on('data', (chunk) => {
      if (!armed) return void client.write(chunk)
      // Messages are a type byte and a length: find the ReadyForQuery ('Z') that ends the SET's answer.
      pending = Buffer.concat([pending, chunk])
      for (let at = 0; at + 5 <= pending.length; ) {
        const end = at + 1 + pending.readInt32BE(at + 1)
        if (end > pending.length) break
        if (pending[at] === 0x5a) {
          client.end(Buffer.concat([pending.subarray(0, end), terminatedMessage()]))
          upstream.destroy()
          return
        }
        at = end
      }
    })
    const drop = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const cut = () => {
    for (const socket of sockets) socket.destroy()
  }
  return {
    port: (server.address() as AddressInfo).port,
    arm: (terminations: number) => void (left = terminations),
    cut,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe.skipIf(!DATABASE_URL)(`a connection terminated in the packet that answers a statement${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const schema = freshSchemaName()
  let setup: AffiliateProgram
  let proxy: Awaited<ReturnType<typeof terminatingProxy>>
  beforeAll(async () => {
    setup = await createAffiliateProgram({ storage: postgresStorage({ connectionString: DATABASE_URL!, schema }) })
    const target = new URL(DATABASE_URL!)
    proxy = await terminatingProxy(target.hostname, Number(target.port || 5432))
  })
  afterAll(async () => {
    await setup?.close()
    await proxy?.close()
    await dropSchema(schema)
  })

  it('answers StorageUnavailableError (503) and writes again on a new connection; the process hears no unhandled error', async () => {
    const url = new URL(DATABASE_URL!)
    url.hostname = '127.0.0.1'
    url.port = String(proxy.port)
    const program = await createAffiliateProgram({ storage: postgresStorage({ connectionString: url.href, schema, connectionTimeoutMs: 2000 }) })
    try {
      // Its pooled connections (made while it migrated) end as idle ones do; the next are terminated.
      proxy.arm(3)
      proxy.cut()
      const outcomes: string[] = []
      for (let attempt = 0; attempt < 6 && !outcomes.includes('created'); attempt += 1) {
        outcomes.push(
          await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' }).then(
            () => 'created',
            (error: unknown) => (error instanceof StorageUnavailableError ? 'unavailable' : `unexpected: ${String(error)}`),
          ),
        )
      }
      // Each terminated connection failed one attempt (as may a cut one the pool still held); then one wrote.
      expect(outcomes.at(-1)).toBe('created')
      expect(outcomes.slice(0, -1)).toEqual(outcomes.slice(0, -1).map(() => 'unavailable'))
      expect(outcomes.length).toBeGreaterThanOrEqual(4)
      expect((await setup.affiliates.get('ann@example.com')).referralCode).toBe('ANN')
    } finally {
      await program.close()
    }
  })
})
