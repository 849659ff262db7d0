// Importing from a tool API that is broken or hostile (issue 43 item 18), against local HTTP
// servers that misbehave: the key never leaves the configured origin (a redirect or a next-page
// link elsewhere is refused before anything is sent there), a list that repeats or makes no
// progress stops with one line, an endless answer is cut at the size cap, and a silent or
// trickling API is given up on after the idle or total timeout.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { dubSource, firstPromoterSource, importProgram, rewardfulSource, toltSource, type ImportSource, type ToolLimits } from '../../src/importers/index.js'

interface BadServer {
  url: string
  origin: string
  requests: { path: string; headers: IncomingHttpHeaders }[]
  /** Bytes written to answers so far. */
  written: number
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function serve(handler: (request: IncomingMessage, response: ServerResponse, state: BadServer) => void): Promise<BadServer> {
  const state: BadServer = { url: '', origin: '', requests: [], written: 0 }
  const server = createServer((request, response) => {
    state.requests.push({ path: request.url!, headers: request.headers })
    const write = response.write.bind(response)
    response.write = ((chunk: string | Buffer, ...rest: never[]) => {
      state.written += Buffer.byteLength(chunk)
      return write(chunk, ...rest)
    }) as typeof response.write
    handler(request, response, state)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.url = `${state.origin}/api`
  return state
}

const json = (response: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(200, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

const KEY = 'secret_key_123'
const sources: Record<'rewardful' | 'tolt' | 'firstpromoter' | 'dub', (apiUrl: string, limits?: ToolLimits) => ImportSource> = {
  rewardful: (apiUrl, limits) => rewardfulSource({ apiKey: KEY, apiUrl, attempts: 1, ...(limits ? { limits } : {}) }),
  tolt: (apiUrl, limits) => toltSource({ apiKey: KEY, programId: 'prg_1', apiUrl, limits }),
  firstpromoter: (apiUrl, limits) => firstPromoterSource({ apiKey: KEY, apiUrl, limits }),
  dub: (apiUrl, limits) => dubSource({ apiKey: KEY, apiUrl, pageSize: 2, limits }),
}

async function run(source: ImportSource) {
  const program = await createAffiliateProgram({ storage: memoryStorage(), clock: testClock('2026-03-01T00:00:00.000Z'), settings: { currency: 'USD' } })
  const started = Date.now()
  const result = await importProgram(program, source).then(
    () => null,
    (error: Error) => error,
  )
  return { error: result, ms: Date.now() - started, affiliates: (await program.affiliates.list({ limit: 1 })).total }
}

const promoter = (id: number) => ({ id, email: `p${id}@example.com`, promotions: [{ id, status: 'active', ref_id: `p${id}x` }] })

describe('credentials stay on the configured origin', () => {
  for (const tool of ['rewardful', 'tolt', 'firstpromoter', 'dub'] as const) {
    it(`${tool}: a redirect to another origin is refused; the other origin receives nothing (no key)`, async () => {
      const elsewhere = await serve((_request, response) => json(response, []))
      const api = await serve((request, response) => {
        response.writeHead(302, { location: `${elsewhere.origin}${request.url}` })
        response.end()
      })
      const { error } = await run(sources[tool](api.url))
      expect(error?.message).toContain(`another origin than the API's (${api.origin}): not followed, the API key is only ever sent to ${api.origin}`)
      expect(elsewhere.requests).toEqual([])
    })
  }

  it("firstpromoter: a redirect within the origin is followed with the key; a Link rel=next to another origin is refused before it is fetched", async () => {
    const elsewhere = await serve((_request, response) => json(response, []))
    const api = await serve((request, response) => {
      if (request.url!.startsWith('/api/promoters/list')) return void (response.writeHead(307, { location: request.url!.replace('/api/', '/api/v2/') }), response.end())
      if (request.url!.startsWith('/api/v2/promoters/list')) return json(response, [promoter(1)], { link: `<${elsewhere.url}/promoters/list?page=2>; rel="next"` })
      json(response, [])
    })
    const { error } = await run(sources.firstpromoter(api.url))
    expect(api.requests.filter((request) => request.path.startsWith('/api/v2/')).map((request) => request.headers['x-api-key'])).toEqual([KEY])
    expect(error?.message).toContain(`FirstPromoter sent /promoters/list page 2 to ${elsewhere.origin}, another origin than the API's`)
    expect(elsewhere.requests).toEqual([])
  })
})

describe('endless pagination stops with one line', () => {
  it('firstpromoter: the same full page again behind each next link', async () => {
    const api = await serve((request, response) => {
      const page = Number(new URL(request.url!, 'http://x').searchParams.get('page'))
      json(response, [promoter(1), promoter(2)], { link: `<${api.url}/promoters/list?page=${page + 1}>; rel="next"` })
    })
    const { error, affiliates } = await run(sources.firstpromoter(api.url))
    expect(error?.message).toBe('FirstPromoter answered /promoters/list page 2 with only records it had sent already (the page repeats): stopped, it makes no progress')
    expect(api.requests).toHaveLength(2)
    expect(affiliates).toBe(0)
  })

  it('firstpromoter: the same record with rel=next', async () => {
    const api = await serve((request, response) => {
      const page = Number(new URL(request.url!, 'http://x').searchParams.get('page'))
      json(response, [promoter(7)], { link: `<${api.url}/promoters/list?page=${page + 1}&x=${page}>; rel=next` })
    })
    const { error } = await run(sources.firstpromoter(api.url))
    expect(error?.message).toContain('FirstPromoter answered /promoters/list page 2 with only records it had sent already')
    expect(api.requests).toHaveLength(2)
  })

  it('rewardful: empty pages that each announce a next page', async () => {
    const api = await serve((request, response) => {
      const page = Number(new URL(request.url!, 'http://x').searchParams.get('page'))
      json(response, { pagination: { current_page: page, next_page: page + 1 }, data: [] })
    })
    const { error } = await run(sources.rewardful(api.url))
    expect(error?.message).toBe('Rewardful answered /affiliates page 1 with no records while announcing a next page: stopped, it makes no progress')
    expect(api.requests).toHaveLength(1)
  })

  it('rewardful: the same full page again with a growing next_page', async () => {
    const api = await serve((request, response) => {
      const page = Number(new URL(request.url!, 'http://x').searchParams.get('page'))
      json(response, { pagination: { next_page: page + 1 }, data: [{ id: 'a1', email: 'a1@example.com' }] })
    })
    const { error } = await run(sources.rewardful(api.url))
    expect(error?.message).toContain('Rewardful answered /affiliates page 2 with only records it had sent already')
  })

  it('tolt: empty pages with has_more; dub: the same full page again', async () => {
    const tolt = await serve((_request, response) => json(response, { success: true, data: [], has_more: true }))
    expect((await run(sources.tolt(tolt.url))).error?.message).toBe('Tolt answered /links page 1 with no records while announcing a next page: stopped, it makes no progress')
    const dub = await serve((_request, response) => json(response, [{ id: 'pn_1', email: 'a@example.com' }, { id: 'pn_2', email: 'b@example.com' }]))
    expect((await run(sources.dub(dub.url))).error?.message).toBe('Dub answered /partners page 2 with only records it had sent already (the page repeats): stopped, it makes no progress')
    expect(dub.requests).toHaveLength(2)
  })
})

describe('answers are capped in size and time', () => {
  it('an endless body is cut at the cap: the import stops having read about the cap, not a gigabyte', async () => {
    const chunk = ' '.repeat(64 * 1024)
    const api = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('[')
      const more = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more)
      }
      more()
    })
    const { error, ms } = await run(sources.firstpromoter(api.url, { maxResponseBytes: 1024 * 1024 }))
    expect(error?.message).toBe("FirstPromoter's answer to /promoters/list page 1 is larger than 1 MiB: stopped reading it")
    // What the server managed to write before the import hung up: the cap plus socket buffers.
    expect(api.written).toBeLessThan(16 * 1024 * 1024)
    expect(ms).toBeLessThan(5000)
  })

  it('a declared Content-Length over the cap is refused without reading the body', async () => {
    const api = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) })
      response.write('[')
    })
    const { error } = await run(sources.dub(api.url, { maxResponseBytes: 1024 * 1024 }))
    expect(error?.message).toBe("Dub's answer to /partners page 1 is larger than 1 MiB: stopped reading it")
  })

  it('a silent API (accepts, never answers) is given up on after the idle timeout', async () => {
    const api = await serve(() => {})
    const { error, ms } = await run(sources.tolt(api.url, { idleTimeoutMs: 300, timeoutMs: 10_000 }))
    expect(error?.message).toBe('Tolt sent nothing for 300 ms while answering /links page 1: stopped (each call has 10 s in all and 300 ms between bytes)')
    expect(ms).toBeGreaterThanOrEqual(290)
    expect(ms).toBeLessThan(3000)
  })

  it('a trickling API (a byte every 100 ms, never done) is given up on after the total timeout', async () => {
    const api = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('[')
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(' ')), 100)
    })
    const { error, ms } = await run(sources.rewardful(api.url, { idleTimeoutMs: 500, timeoutMs: 1000 }))
    expect(error?.message).toBe('Rewardful did not finish answering /affiliates page 1 within 1 s: stopped (each call has 1 s in all and 500 ms between bytes)')
    expect(ms).toBeGreaterThanOrEqual(990)
    expect(ms).toBeLessThan(4000)
  })
})
