// toNodeHandler details over a real node:http server: chunked and Content-Length bodies over the
// limit, invalid UTF-8, a sub-path mount seen through originalUrl, and handlers not made by createHandler.
import { createServer } from 'node:http'
import { request as httpRequest } from 'node:http'
import { afterEach, expect, test } from 'vitest'
import { toNodeHandler } from '../../src/http/index.js'
import { setup } from '../support/http/helpers.js'
import { listen } from '../support/http/transports.js'

const servers: import('node:http').Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function serve(handler: Parameters<typeof toNodeHandler>[0]): Promise<string> {
  const server = createServer(toNodeHandler(handler))
  servers.push(server)
  return listen(server)
}

function raw(origin: string, path: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'POST', headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

test('a chunked body over maxBodyBytes is 413; invalid UTF-8 is 400; a valid chunked body works', async () => {
  const s = await setup({ handler: { maxBodyBytes: 1000 } })
  const origin = await serve(s.handler)
  const headers = { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }
  const big = await raw(origin, '/api/v1/affiliates', headers, [Buffer.from('{"email":"a@b.co","payment_details":"'), Buffer.alloc(5000, 'x'), Buffer.from('"}')])
  expect(big.status).toBe(413)
  const invalid = await raw(origin, '/api/v1/affiliates', headers, [Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])])
  expect(invalid.status).toBe(400)
  expect(JSON.parse(invalid.body).error).toContain('UTF-8')
  const ok = await raw(origin, '/api/v1/affiliates', headers, [Buffer.from('{"email":'), Buffer.from('"a@b.co"}')])
  expect(ok.status).toBe(201)
  expect((await s.program.affiliates.list()).total).toBe(1)
})

test('bodies sent with Content-Length (read from the buffer at once): valid works, invalid UTF-8 is 400, over the limit is 413', async () => {
  const s = await setup({ handler: { maxBodyBytes: 1000 } })
  const origin = await serve(s.handler)
  const send = (body: Buffer) =>
    raw(origin, '/api/v1/affiliates', { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', 'content-length': String(body.length) }, [body])
  expect((await send(Buffer.from('\ufeff{"email":"bom@b.co"}'))).status).toBe(201)
  const invalid = await send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))
  expect(invalid.status).toBe(400)
  expect(JSON.parse(invalid.body).error).toContain('UTF-8')
  expect((await send(Buffer.from(`{"email":"a@b.co","payment_details":"${'x'.repeat(2000)}"}`))).status).toBe(413)
  expect((await s.program.affiliates.list()).items.map((affiliate) => affiliate.email)).toEqual(['bom@b.co'])
})

test('a plain fetch handler (not made by createHandler) is served through Request / Response', async () => {
  const origin = await serve(async (request) => {
    const body = request.method === 'POST' ? await request.text() : ''
    return new Response(JSON.stringify({ method: request.method, path: new URL(request.url).pathname, body }), { status: 202, headers: { 'x-seen': 'yes' } })
  })
  const res = await fetch(`${origin}/some/path?x=1`, { method: 'POST', body: 'hello' })
  expect(res.status).toBe(202)
  expect(res.headers.get('x-seen')).toBe('yes')
  expect(await res.json()).toEqual({ method: 'POST', path: '/some/path', body: 'hello' })
})

test("createHandler's result carries fetch and node: node serves node:http directly, fetch answers Requests, toNodeHandler takes either form", async () => {
  const s = await setup()
  const handler = s.handler as import('../../src/http/index.js').Handler
  const direct = createServer(handler.node)
  servers.push(direct)
  const headers = { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }
  const created = await fetch(`${await listen(direct)}/api/v1/affiliates`, { method: 'POST', headers, body: JSON.stringify({ email: 'node@example.com' }) })
  expect(created.status).toBe(201)
  const viaFetch = await handler.fetch(new Request('http://test.local/api/v1/affiliates/node%40example.com', { headers }))
  expect((await viaFetch.json()).data.user_email).toBe('node@example.com')
  expect(toNodeHandler(handler)).toBe(handler.node)
  expect(toNodeHandler({ fetch: handler.fetch, node: handler.node })).toBe(handler.node)
  const fetchOnly = await serve({ fetch: handler.fetch })
  expect((await fetch(`${fetchOnly}/api/v1/affiliates/node%40example.com`, { headers })).status).toBe(200)
})

test('a fetch handler answering with several Set-Cookie headers gets every one of them through', async () => {
  const origin = await serve(async () => {
    const headers = new Headers({ 'content-type': 'text/plain' })
    headers.append('set-cookie', 'a=1; Path=/; HttpOnly')
    headers.append('set-cookie', 'b=2; Path=/; Max-Age=0')
    return new Response('ok', { headers })
  })
  const response = await fetch(origin)
  expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/; Max-Age=0'])
  expect(await response.text()).toBe('ok')
})
