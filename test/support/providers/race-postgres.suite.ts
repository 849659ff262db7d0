// Providers deliver the events of one checkout within the same second, often twice, over several
// connections. Here three servers (node:http, each with its own pool on one PostgreSQL schema, as
// three processes would have) receive every event of 20 checkouts of one provider twice, all at
// once, in a shuffled order: the ledger must be the one in-order delivery gives, every round.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort } from '../../../src/index.js'
import type { ProjectScope } from '../../../src/core/program.js'
import type { FetchHandler } from '../../../src/providers/handler.js'
import { CHECKOUT_PROVIDERS, checkoutEvents } from './checkouts.js'
import { eventStatusesOf, ledgerOf, shuffled } from './ledger.js'
import { SCENARIO_SETTINGS } from './scenario.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON, routeConnection, type PostgresRoute } from '../sql/pg-schema.js'

const suite = DATABASE_URL ? describe : describe.skip
const SERVERS = 3
const CUSTOMERS = 20
const clock = testClock('2026-06-01T00:00:00Z')
/** Customer n's first payment: n minutes past this; the renewal 30 days later (both past the clock). */
const FIRST_PAYMENTS = new Date('2026-04-01T00:00:00Z')

/** Each provider's events, made once (the same events in every round's projects). */
const checkouts = new Map(CHECKOUT_PROVIDERS.map((provider) => [provider, checkoutEvents(provider, CUSTOMERS, FIRST_PAYMENTS)]))

/** The ledger and every event's status: what the test compares. */
const outcomeOf = async (scope: ProjectScope) => ({ ...(await ledgerOf(scope)), events: await eventStatusesOf(scope) })

/** A server on its own pool: POST /<project>/<provider> goes to that project's provider handler. */
function server(program: AffiliateProgram, storage: StoragePort) {
  const handlers = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>()
  const http: Server = createServer((request, response) => {
    const [, project, name] = (request.url ?? '').split('/')
    const key = `${project}/${name}`
    let handler = handlers.get(key)
    if (!handler) {
      handler = CHECKOUT_PROVIDERS.find((provider) => provider.provider === name)!.handler(program, storage, project).node
      handlers.set(key, handler)
    }
    handler(request, response)
  })
  // Connections are kept between rounds (a round's comparison may take longer than the default 5 s).
  http.keepAliveTimeout = 120_000
  return http
}

/** `rounds` shuffled deliveries, each on fresh projects (more rounds, more orders tried). */
export function providersRaceSuite(route: PostgresRoute, { rounds }: { rounds: number }): void {
  suite(`payment providers on postgres${route.title}: a checkout's events twice at once over three servers${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
    const storages: StoragePort[] = []
    const servers: Array<{ http: Server; url: string; program: AffiliateProgram }> = []
    let cleanup: () => Promise<void>
    const inOrder = new Map<string, unknown>()

    beforeAll(async () => {
      const fresh = freshPostgresStorage({ max: 6 }, route)
      cleanup = fresh.cleanup
      storages.push(fresh.storage)
      for (let n = 1; n < SERVERS; n += 1) storages.push(postgresStorage({ ...routeConnection(route), schema: fresh.schema, max: 6 }))
      for (const storage of storages) {
        const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
        const http = server(program, storage)
        await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
        servers.push({ http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, program })
      }
      // The ledger of in-order delivery, one event after the other.
      for (const provider of CHECKOUT_PROVIDERS) {
        const storage = memoryStorage()
        const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
        await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
        const handler = provider.handler(program, storage)
        for (const event of checkouts.get(provider)!) expect((await provider.deliver(handler, event, clock)).status).toBe(200)
        inOrder.set(provider.name, await outcomeOf(program))
      }
    }, 60_000)

    afterAll(async () => {
      for (const { http } of servers) {
        http.closeAllConnections()
        await new Promise((resolve) => http.close(resolve))
      }
      for (const storage of storages.slice(1)) await storage.close()
      await cleanup?.()
    })

    it(`${rounds} rounds: ${CUSTOMERS} checkouts per provider, each event twice, all at once, equal in-order delivery`, async () => {
      const home = servers[0]!.program
      for (let round = 1; round <= rounds; round += 1) {
        for (const provider of CHECKOUT_PROVIDERS) {
          const project = await home.projects.create({ name: `race-${round}-${provider.name}`, settings: SCENARIO_SETTINGS })
          const scope = home.project(project.id)
          await scope.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
          // One provider's checkouts at a time: each event twice, all at once, over the three servers
          // (every provider at once would be several hundred requests on 18 connections).
          const deliveries: Array<() => Promise<Response>> = []
          for (const event of checkouts.get(provider)!) {
            for (const copy of [0, 1]) {
              const url = `${servers[(deliveries.length + copy) % SERVERS]!.url}/${project.id}/${provider.provider}`
              // The provider's signed Request, sent to a server over HTTP.
              const overHttp: FetchHandler = async (request) => fetch(url, { method: 'POST', headers: request.headers, body: await request.text() })
              deliveries.push(() => provider.deliver(overHttp, event, clock))
            }
          }
          const answers = await Promise.all(shuffled(deliveries, round).map((deliver) => deliver()))
          // 409: another request was still applying that event; the provider delivers it again later.
          expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 409).map((answer) => answer.status)).toEqual([])
          expect({ round, provider: provider.name, ...(await outcomeOf(scope)) }).toEqual({ round, provider: provider.name, ...(inOrder.get(provider.name) as object) })
        }
      }
    }, 600_000) // A round took 11-21 s with the two cores shared with other work (load 15)
  })
}
