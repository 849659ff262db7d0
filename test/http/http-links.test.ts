// /links over REST (docs/links.md): both shapes' records and envelopes, the affiliate named by
// email or id, scopes, bad input answered 4xx changing nothing, tenancy, and the QR code as an
// SVG or PNG image of the size asked, in process and over real node:http, and through the client.
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/index.js'
import { createHandler } from '../../src/http/index.js'
import { caller, setup, setupVia } from '../support/http/helpers.js'
import { nodeHttp } from '../support/http/transports.js'

const LINKS = { publicUrl: 'https://go.example', prefix: '/r', allowedOrigins: ['https://shop.example'], domains: ['ann.link'] }
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** The width and height a PNG's IHDR chunk states (the first chunk, right after the signature). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe('IHDR')
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

async function start() {
  const s = await setup({ links: LINKS })
  const ann = await s.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
  const bob = await s.program.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
  const alt = caller(createHandler(s.program, { shape: 'alternative', rateLimit: false }), s.key)
  return { ...s, alt, ann, bob }
}

describe('/links', () => {
  it('creates, reads, lists, changes and deletes links in the primary shape', async () => {
    const s = await start()
    const created = await s.call('POST', '/links', {
      affiliate: 'ANN@example.com',
      key: 'ann-youtube',
      destination: 'https://shop.example/pricing?plan=pro',
      utm_source: 'youtube',
      utm_medium: 'video',
      utm_campaign: 'spring',
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      success: true,
      data: {
        id: created.body.data.id,
        affiliate_id: s.ann.id,
        key: 'ann-youtube',
        url: 'https://go.example/r/ann-youtube',
        destination: 'https://shop.example/pricing?plan=pro',
        domain: null,
        utm_source: 'youtube',
        utm_medium: 'video',
        utm_campaign: 'spring',
        utm_term: null,
        utm_content: null,
        created_at: '2026-03-01T00:00:00.000Z',
      },
    })
    const id = created.body.data.id as number
    const short = await s.call('POST', '/links', { affiliate_id: s.ann.id, key: 'ann-pod', domain: 'ann.link' })
    expect(short.body.data).toMatchObject({ url: 'https://ann.link/ann-pod', domain: 'ann.link' })
    const generated = await s.call('POST', '/links', { affiliate_id: s.bob.id })
    expect(generated.body.data.key).toMatch(/^bob-[a-z2-9]{4}$/)

    expect((await s.call('GET', `/links/${id}`)).body).toEqual(created.body)
    const anns = await s.call('GET', '/links?affiliate=ann%40example.com&limit=1')
    expect(anns.body.pagination).toEqual({ limit: 1, offset: 0, total: 2, has_more: true })
    expect(anns.body.data.map((link: { key: string }) => link.key)).toEqual(['ann-pod'])
    expect((await s.call('GET', `/links?affiliate_id=${s.bob.id}`)).body.data).toEqual([generated.body.data])
    expect((await s.call('GET', '/links')).body.pagination.total).toBe(3)

    const changed = await s.call('PATCH', `/links/${id}`, { key: 'ann-yt', destination: null, utm_medium: null, utm_term: 'shoes' })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toEqual({ ...created.body.data, key: 'ann-yt', url: 'https://go.example/r/ann-yt', destination: null, utm_medium: null, utm_term: 'shoes' })
    const deleted = await s.call('DELETE', `/links/${id}`)
    expect([deleted.status, deleted.text]).toEqual([204, ''])
    expect((await s.call('GET', `/links/${id}`)).status).toBe(404)
    expect(await s.program.links.resolve('ann-yt')).toBeNull()
  })

  it('answers the alternative shape: records under data.link and data.links, affiliates as aff_<id>', async () => {
    const s = await start()
    const created = await s.alt('POST', '/links', { affiliate: `aff_${s.ann.id}`, key: 'ann-blog', utm_source: 'blog' })
    expect(created.status).toBe(201)
    expect(created.body.data.link).toMatchObject({ affiliate_id: `aff_${s.ann.id}`, key: 'ann-blog', url: 'https://go.example/r/ann-blog', utm_source: 'blog' })
    expect((await s.alt('POST', '/links', { affiliate: 'bob@example.com', key: 'bob-blog' })).status).toBe(201)
    const list = await s.alt('GET', `/links?affiliate=${s.ann.id}`)
    expect(list.body.data).toMatchObject({ total: 1, limit: 20, offset: 0 })
    expect(list.body.data.links.map((link: { key: string }) => link.key)).toEqual(['ann-blog'])
    const id = created.body.data.link.id as number
    expect((await s.alt('PATCH', `/links/${id}`, { utm_campaign: 'fall' })).body.data.link.utm_campaign).toBe('fall')
    const taken = await s.alt('POST', '/links', { affiliate: 'ann@example.com', key: 'BOB-blog' })
    expect(taken.status).toBe(409)
    expect(taken.body.error).toMatchObject({ code: 'conflict', details: { field: 'key' } })
    expect((await s.alt('DELETE', `/links/${id}`)).status).toBe(204)
  })

  it('refuses bad input with a 4xx naming the field and changes nothing', async () => {
    const s = await start()
    const link = (await s.call('POST', '/links', { affiliate_id: s.ann.id, key: 'ann-ok' })).body.data
    const before = JSON.stringify((await s.call('GET', '/links')).body)
    const refused: Array<[string, string, unknown, number, string]> = [
      ['POST', '/links', {}, 400, 'affiliate: is required (an email), or send affiliate_id'],
      ['POST', '/links', { affiliate: 'ann@example.com', affiliate_id: s.ann.id }, 400, 'send affiliate or affiliate_id, not both'],
      ['POST', '/links', { affiliate: 'nobody@example.com' }, 404, 'affiliate not found'],
      ['POST', '/links', { affiliate_id: s.ann.id, key: 'has space' }, 400, 'key: must be 3 to 64 letters, digits, _ or -'],
      ['POST', '/links', { affiliate_id: s.ann.id, key: 'BOB' }, 409, "this key is an affiliate's referral code"],
      ['POST', '/links', { affiliate_id: s.ann.id, key: 'ANN-OK' }, 409, 'this link key is already taken'],
      ['POST', '/links', { affiliate_id: s.ann.id, destination: 'https://evil.example/x' }, 400, 'destination: https://evil.example is not an allowed origin (allowed: https://shop.example)'],
      ['POST', '/links', { affiliate_id: s.ann.id, destination: 'shop.example/x' }, 400, 'destination: must be an absolute http or https URL'],
      ['POST', '/links', { affiliate_id: s.ann.id, domain: 'other.link' }, 400, 'domain: must be one of the short domains ann.link'],
      ['POST', '/links', { affiliate_id: s.ann.id, utm_source: 'a\u0007b' }, 400, 'utm_source: must not contain control characters'],
      ['POST', '/links', { affiliate_id: s.ann.id, utm_campaign: 'x'.repeat(201) }, 400, 'utm_campaign: must be at most 200 characters'],
      ['POST', '/links', { affiliate_id: s.ann.id, utm_name: 'x' }, 400, 'unknown field "utm_name"'],
      ['PATCH', `/links/${link.id}`, { key: 'bob' }, 409, "this key is an affiliate's referral code"],
      ['PATCH', `/links/${link.id}`, { utm_term: 7 }, 400, 'utm_term: must be a string'],
      ['PATCH', '/links/999999', { utm_term: 'x' }, 404, 'link not found'],
      ['PATCH', '/links/abc', { utm_term: 'x' }, 400, 'invalid link id'],
      ['GET', '/links?affiliate=nobody%40example.com', undefined, 404, 'affiliate not found'],
      ['GET', '/links?limit=0', undefined, 400, 'limit: must be at least 1'],
      ['GET', `/links/${link.id}/qr?format=gif`, undefined, 400, 'format: must be svg or png'],
      ['GET', `/links/${link.id}/qr?size=63`, undefined, 400, 'size: must be at least 64'],
      ['GET', `/links/${link.id}/qr?size=1025`, undefined, 400, 'size: must be at most 1024'],
      ['GET', `/links/${link.id}/qr?size=big`, undefined, 400, 'size: must be an integer'],
      ['GET', '/links/999999/qr', undefined, 404, 'link not found'],
      ['DELETE', '/links/999999', undefined, 404, 'link not found'],
    ]
    for (const [method, path, body, status, message] of refused) {
      const answer = await s.call(method, path, body)
      expect([method, path, answer.status, answer.body.error]).toEqual([method, path, status, message])
    }
    expect(JSON.stringify((await s.call('GET', '/links')).body)).toBe(before)
  })

  it('asks affiliates:read to read and affiliates:write to change, and sees no other project', async () => {
    const s = await start()
    const link = (await s.call('POST', '/links', { affiliate_id: s.ann.id, key: 'ann-one' })).body.data
    const reader = await s.keyWith(['affiliates:read'])
    expect((await s.call('GET', `/links/${link.id}`, undefined, { key: reader })).status).toBe(200)
    expect((await s.call('GET', `/links/${link.id}/qr`, undefined, { key: reader })).status).toBe(200)
    for (const [method, path, body] of [['POST', '/links', { affiliate_id: s.ann.id }], ['PATCH', `/links/${link.id}`, {}], ['DELETE', `/links/${link.id}`, undefined]] as const) {
      const answer = await s.call(method, path, body, { key: reader })
      expect([method, answer.status, answer.body.error]).toEqual([method, 403, 'this API key lacks the affiliates:write scope'])
    }
    const other = await s.program.projects.create({ name: 'other' })
    const { key } = await s.program.project(other.id).keys.create()
    for (const [method, path] of [['GET', `/links/${link.id}`], ['PATCH', `/links/${link.id}`], ['DELETE', `/links/${link.id}`], ['GET', `/links/${link.id}/qr`]] as const) {
      expect((await s.call(method, path, method === 'PATCH' ? {} : undefined, { key })).status).toBe(404)
    }
    expect((await s.call('POST', '/links', { affiliate_id: s.ann.id }, { key })).status).toBe(404)
    expect((await s.call('GET', '/links', undefined, { key })).body.pagination.total).toBe(0)
    expect((await s.call('GET', `/links/${link.id}`)).body.data.key).toBe('ann-one')
  })

  it("answers a link's QR code as an SVG or a PNG of the size asked, and 409 for a link without a short URL", async () => {
    const s = await start()
    const link = (await s.call('POST', '/links', { affiliate_id: s.ann.id, key: 'ann-qr' })).body.data
    const svg = await s.handler(new Request(`http://test.local/api/v1/links/${link.id}/qr?format=svg&size=300`, { headers: { authorization: `Bearer ${s.key}` } }))
    expect(svg.status).toBe(200)
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    expect(svg.headers.get('cache-control')).toBe('no-store')
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="300" height="300" viewBox="0 0 \d+ \d+"/)
    const fallback = await s.handler(new Request(`http://test.local/api/v1/links/${link.id}/qr`, { headers: { authorization: `Bearer ${s.key}` } }))
    expect([fallback.headers.get('content-type'), (await fallback.text()).slice(0, 60)]).toEqual(['image/svg+xml', expect.stringContaining('width="256"')])
    for (const size of [64, 118, 1024]) {
      const png = await s.handler(new Request(`http://test.local/api/v1/links/${link.id}/qr?format=png&size=${size}`, { headers: { authorization: `Bearer ${s.key}` } }))
      expect(png.headers.get('content-type')).toBe('image/png')
      const bytes = new Uint8Array(await png.arrayBuffer())
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
      expect(pngSize(bytes)).toEqual({ width: size, height: size })
    }

    const bare = await setup()
    const bob = await bare.program.affiliates.create({ email: 'bob@example.com' })
    const unreachable = (await bare.call('POST', '/links', { affiliate_id: bob.id, key: 'bob-qr' })).body.data
    expect(unreachable.url).toBeNull()
    const refused = await bare.call('GET', `/links/${unreachable.id}/qr`)
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatch(/^this link has no short URL to encode/)
  })

  it('sends the PNG bytes unchanged over real node:http, and the typed client reads both formats', async () => {
    const s = await setupVia(nodeHttp, { links: LINKS })
    try {
      const ann = await s.program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const client = createClient({ baseURL: `${s.origin}/api/v1`, apiKey: s.key })
      const created = await client.links.create({ affiliate: 'ann@example.com', key: 'ann-node', utm_source: 'podcast' })
      expect(created.data).toMatchObject({ affiliate_id: ann.id, url: 'https://go.example/r/ann-node', utm_source: 'podcast' })
      const id = created.data.id
      expect((await client.links.list({ affiliate_id: ann.id })).data.map((link) => link.key)).toEqual(['ann-node'])
      expect((await client.links.update(id, { utm_source: null })).data.utm_source).toBeNull()
      expect((await client.links.get(id)).data.key).toBe('ann-node')

      const png = await client.links.qr(id, { format: 'png', size: 200 })
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
      expect(pngSize(png)).toEqual({ width: 200, height: 200 })
      const direct = await fetch(`${s.origin}/api/v1/links/${id}/qr?format=png&size=200`, { headers: { authorization: `Bearer ${s.key}` } })
      expect(direct.headers.get('content-length')).toBe(String(png.byteLength))
      expect(new Uint8Array(await direct.arrayBuffer())).toEqual(png)
      expect(await client.links.qr(id, { size: 128 })).toMatch(/^<svg [^>]*width="128"/)
      await expect(client.links.qr(id, { format: 'png', size: 9 })).rejects.toMatchObject({ status: 400, message: 'size: must be at least 64' })
      await client.links.delete(id)
      await expect(client.links.get(id)).rejects.toMatchObject({ status: 404 })
    } finally {
      await s.stop()
    }
  })
})
