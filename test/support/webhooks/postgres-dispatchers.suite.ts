// Webhook dispatchers in several processes over one PostgreSQL schema: SKIP LOCKED claims deliver
// each delivery exactly once; a dispatcher killed mid-batch loses nothing (its leases expire and
// another process sends them). Needs DATABASE_URL. Run straight (webhooks-postgres.test.ts) and
// through PgBouncer (webhooks-pgbouncer.test.ts); the oracle reads over DATABASE_URL.
import { spawn, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, type AffiliateProgram, type StoragePort } from '../../../src/index.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON, routeConnection, type PostgresRoute } from '../sql/pg-schema.js'
import { startReceiver, until, type Receiver } from '../webhooks-helpers.js'

const here = dirname(fileURLToPath(import.meta.url))
const skipReason = DATABASE_URL ? '' : NO_DATABASE_REASON
const suite = skipReason ? describe.skip : describe

interface Dispatcher {
  process: ChildProcess
  ready: Promise<void>
  exited: Promise<number | null>
  stop(): Promise<void>
}

function startDispatcher(args: object): Dispatcher {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'dispatcher-child.ts'), JSON.stringify(args)], {
    env: process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('ready')) resolve()
    })
    void exited.then(() => reject(new Error(`dispatcher exited early: ${stderr}`)))
  })
  return {
    process: child,
    ready,
    exited,
    async stop() {
      child.stdin!.write('stop\n')
      const code = await exited
      if (code !== 0) throw new Error(`dispatcher exited with ${code}: ${stderr}`)
    },
  }
}

export function postgresDispatchersSuite(route: PostgresRoute): void {
  suite(`webhooks on PostgreSQL${route.title}, several dispatcher processes${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
    let storage: StoragePort
    let schema: string
    let cleanup: () => Promise<void>
    let oracle: pg.Client
    let counter = 0

    beforeAll(async () => {
      ;({ storage, schema, cleanup } = freshPostgresStorage({}, route))
      oracle = new pg.Client({ connectionString: DATABASE_URL })
      await oracle.connect()
    })
    afterAll(async () => {
      await oracle?.end()
      await cleanup?.()
    })

    /** A project with one endpoint on `receiver` and `count` recorded events. */
    async function projectWithEvents(receiver: Receiver, count: number): Promise<{ program: AffiliateProgram; project: string }> {
      counter += 1
      const project = `hooks-${counter}`
      const program = await createAffiliateProgram({ storage, project, settings: { allowPrivateNetworks: true } })
      await program.webhooks.create({ url: receiver.url, events: ['referral_signed_up'] })
      const now = new Date()
      for (let start = 0; start < count; start += 500) {
        await storage.transaction(async (tx) => {
          for (let index = start; index < Math.min(count, start + 500); index++) {
            await tx.outbox.enqueue({ projectId: program.projectId, type: 'referral_signed_up', payload: { index }, createdAt: now })
          }
        })
      }
      return { program, project }
    }

    /** Counts requests per delivery id seen by the receiver. */
    function perDelivery(receiver: Receiver): Map<string, number> {
      const counts = new Map<string, number>()
      for (const request of receiver.requests) {
        const id = request.headers['x-service-delivery'] as string
        counts.set(id, (counts.get(id) ?? 0) + 1)
      }
      return counts
    }

    it('3 dispatcher processes draining 3,000 events deliver each exactly once', { timeout: 120_000 }, async () => {
      const receiver = await startReceiver()
      try {
        const { program, project } = await projectWithEvents(receiver, 3000)
        const dispatchers = Array.from({ length: 3 }, () => startDispatcher({ connection: routeConnection(route), schema, project, concurrency: 16 }))
        await Promise.all(dispatchers.map((dispatcher) => dispatcher.ready))
        await until(async () => (await program.webhooks.deliveries({ status: 'succeeded', limit: 1 })).total === 3000, 90_000)
        await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()))
        const counts = perDelivery(receiver)
        expect(counts.size).toBe(3000)
        expect([...counts.values()].every((count) => count === 1)).toBe(true)
        const attempts = await oracle.query(
          `SELECT count(*)::int AS n FROM "${schema}".delivery_attempts a JOIN "${schema}".deliveries d ON d.id = a.delivery_id WHERE d.project_id = $1`,
          [program.projectId],
        )
        expect(attempts.rows[0].n).toBe(3000)
      } finally {
        await receiver.close()
      }
    })

    it('a dispatcher killed mid-batch loses nothing: after a restart every event is delivered at least once', { timeout: 120_000 }, async () => {
      const receiver = await startReceiver((_request, response) => setTimeout(() => response.writeHead(200).end('ok'), 20))
      try {
        const { program, project } = await projectWithEvents(receiver, 400)
        const options = { connection: routeConnection(route), schema, project, concurrency: 16, leaseMs: 2000, timeoutMs: 1000 }
        const first = startDispatcher(options)
        await first.ready
        await until(async () => receiver.requests.length >= 50, 60_000)
        first.process.kill('SIGKILL')
        await first.exited
        const sentBeforeCrash = receiver.requests.length
        expect((await program.webhooks.deliveries({ status: 'succeeded', limit: 1 })).total).toBeLessThan(400)

        const second = startDispatcher(options)
        await second.ready
        await until(async () => (await program.webhooks.deliveries({ status: 'succeeded', limit: 1 })).total === 400, 90_000)
        await second.stop()
        const counts = perDelivery(receiver)
        expect(counts.size).toBe(400)
        expect(receiver.requests.length).toBeGreaterThan(sentBeforeCrash)
        const { total: unfinished } = await program.webhooks.deliveries({ status: 'delivering', limit: 1 })
        expect(unfinished).toBe(0)
      } finally {
        await receiver.close()
      }
    })
  })
}
