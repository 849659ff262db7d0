// A local server speaking Stripe's promotion code API as documented for 2025-09-30.clover on:
// POST /v1/promotion_codes, form-encoded, Bearer secret key, `promotion[type]=coupon` with
// `promotion[coupon]`, an optional `code` (letters, digits and dashes; unique among active codes,
// case-insensitively), `metadata[...]`; an Idempotency-Key replays the first answer. Errors in
// Stripe's body (`{ error: { type, code, message, param } }`): 401 for a wrong key, 400 for a
// missing parameter, an unknown coupon (resource_missing) or a code in use. `mode` makes it
// misbehave (slow, failing, redirecting) for the tests of what the client does then.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export const STRIPE_SECRET_KEY = 'sk_test_promotion_codes'

export interface StoredPromotionCode {
  id: string
  object: 'promotion_code'
  code: string
  active: boolean
  promotion: { type: 'coupon'; coupon: string }
  metadata: Record<string, string>
  created: number
  livemode: false
}

export interface StripePromotionCodesApi {
  url: string
  /** The coupons that exist. */
  coupons: Set<string>
  codes: StoredPromotionCode[]
  /** Every request's method, path, Stripe-Version and Idempotency-Key, and whether it carried the key. */
  requests: Array<{ method: string; path: string; version: string | null; idempotencyKey: string | null; form: URLSearchParams }>
  mode: 'normal' | 'slow' | 'fail' | 'redirect' | 'huge'
  close(): Promise<void>
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    request.once('end', () => resolve(text))
    request.once('error', reject)
  })
}

export async function startStripePromotionCodesApi(coupons: string[]): Promise<StripePromotionCodesApi> {
  const api: StripePromotionCodesApi = { url: '', coupons: new Set(coupons), codes: [], requests: [], mode: 'normal', close: async () => {} }
  const answers = new Map<string, { status: number; body: unknown }>()
  let next = 0
  const server = createServer(async (request, response) => {
    const text = await readBody(request)
    const form = new URLSearchParams(text)
    const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : null)
    const path = (request.url ?? '').split('?')[0]!
    api.requests.push({ method: request.method ?? '', path, version: header('stripe-version'), idempotencyKey: header('idempotency-key'), form })
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${next}` })
      response.end(JSON.stringify(body))
    }
    const refuse = (status: number, error: Record<string, string>) => reply(status, { error: { type: 'invalid_request_error', ...error } })
    if (api.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 1500))
    if (api.mode === 'redirect') {
      response.writeHead(307, { Location: 'http://127.0.0.1:9/v1/promotion_codes' })
      return response.end()
    }
    if (api.mode === 'fail') return reply(500, { error: { type: 'api_error', message: 'Something went wrong on our end.' } })
    if (api.mode === 'huge') return reply(200, { id: 'promo_huge', padding: 'x'.repeat(2 * 1024 * 1024) })
    if (header('authorization') !== `Bearer ${STRIPE_SECRET_KEY}`) return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } })
    if (request.method !== 'POST' || path !== '/v1/promotion_codes') return refuse(404, { message: `Unrecognized request URL (${request.method}: ${path}).` })
    if (!/^application\/x-www-form-urlencoded/.test(header('content-type') ?? '')) return refuse(400, { message: 'Invalid request: unsupported Content-Type.' })
    const key = header('idempotency-key')
    const replay = key ? answers.get(key) : undefined
    if (replay) return reply(replay.status, replay.body)
    const answer = (status: number, body: unknown) => {
      if (key) answers.set(key, { status, body })
      reply(status, body)
    }
    if (form.has('coupon')) return answer(400, { error: { type: 'invalid_request_error', code: 'parameter_unknown', param: 'coupon', message: 'Received unknown parameter: coupon' } })
    if (form.get('promotion[type]') !== 'coupon') return answer(400, { error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'promotion[type]', message: 'Missing required param: promotion[type].' } })
    const coupon = form.get('promotion[coupon]') ?? ''
    if (!api.coupons.has(coupon)) return answer(400, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'promotion[coupon]', message: `No such coupon: '${coupon}'` } })
    const code = form.get('code') ?? `CODE${next + 1}`
    if (!/^[A-Za-z0-9-]{1,500}$/.test(code)) return answer(400, { error: { type: 'invalid_request_error', code: 'parameter_invalid_string', param: 'code', message: 'Invalid code: letters, digits and dashes only.' } })
    if (api.codes.some((each) => each.active && each.code.toLowerCase() === code.toLowerCase())) {
      return answer(400, { error: { type: 'invalid_request_error', param: 'code', message: `An active promotion code with \`code: ${code}\` already exists.` } })
    }
    next += 1
    const metadata = Object.fromEntries([...form].filter(([name]) => /^metadata\[.+\]$/.test(name)).map(([name, value]) => [name.slice(9, -1), value]))
    const created: StoredPromotionCode = { id: `promo_1Test${String(next).padStart(6, '0')}`, object: 'promotion_code', code, active: true, promotion: { type: 'coupon', coupon }, metadata, created: Math.floor(Date.now() / 1000), livemode: false }
    api.codes.push(created)
    answer(200, created)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  api.close = () => new Promise((resolve) => server.close(() => resolve()))
  return api
}
