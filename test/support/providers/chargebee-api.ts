// A local server speaking Chargebee's event API as its documentation gives it: GET
// /api/v2/events/{id} with HTTP Basic (the API key as the user name) answers `{ "event": ... }`,
// an unknown id 404 with Chargebee's error body, a wrong key 401. A test registers each event
// before delivering it, as Chargebee holds every event it sends. One server per test process.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export const CHARGEBEE_API_KEY = 'test_cbkey_scenario'

export interface ChargebeeApi {
  /** The origin to configure as the handler's apiBase. */
  url: string
  /** Chargebee now holds the event (by its id): the fetch-back finds it. */
  hold(event: { id: string }): void
  /** How many fetch-backs asked for each id. */
  asked: Map<string, number>
}

const held = new Map<string, unknown>()
const asked = new Map<string, number>()
const server = createServer((request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json;charset=utf-8' })
    response.end(JSON.stringify(body))
  }
  const expected = `Basic ${Buffer.from(`${CHARGEBEE_API_KEY}:`).toString('base64')}`
  if (request.headers.authorization !== expected) {
    return reply(401, { message: 'Sorry, authentication failed. Invalid api key', type: 'invalid_request', api_error_code: 'api_authentication_failed', error_code: 'api_authentication_failed', http_status_code: 401 })
  }
  const id = /^\/api\/v2\/events\/([^/?]+)$/.exec(request.url ?? '')?.[1]
  if (request.method !== 'GET' || id === undefined) return reply(404, { message: 'Sorry, the resource was not found', type: 'invalid_request', api_error_code: 'resource_not_found', http_status_code: 404 })
  const eventId = decodeURIComponent(id)
  asked.set(eventId, (asked.get(eventId) ?? 0) + 1)
  const event = held.get(eventId)
  if (event === undefined) return reply(404, { message: `Sorry, we couldn't find that resource`, type: 'invalid_request', api_error_code: 'resource_not_found', error_code: 'referenced_resource_not_found', http_status_code: 404 })
  reply(200, { event })
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
// The test process may end with it listening.
server.unref()

export const chargebeeApi: ChargebeeApi = {
  url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  hold: (event) => void held.set(event.id, event),
  asked,
}
