// createTrackingHandler(program, options): the referral-link surface beside the API handler
// (docs/tracking.md). GET <prefix>/:code and <prefix>/:partner_slug/:code count a visit once per
// visitor per day (bots and an address's visitors past its daily bound not at all), set the
// referral cookie and redirect with the referral in the landing URL; <prefix>/-/clicks and
// -/signups take reports from the browser snippet with a publishable key, a signup only with the
// signed referral of a click; <prefix>/-/incentive tells the page what a referred visitor gets;
// <prefix>/-/affiliate-kit.js serves the snippet.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AffiliateProgram } from '../core/program.js'
import type { LinkTarget } from '../core/affiliates/visits.js'
import { linkDestination } from '../core/rules/link-destination.js'
import { storageErrorInfo } from '../server/errors.js'
import { errorAnswer, pipeline, type Exchange } from '../server/pipeline.js'
import { observe } from '../server/observe.js'
import { readReferralCookie, referralCookieHeader } from './cookie.js'
import { redirectTarget, withQueryParam } from './redirect-target.js'
import { verifyReferral } from './referral-token.js'
import { browserReport, snippet } from './browser-reports.js'
import { incentiveRead } from './incentive.js'
import {
  CODE,
  COUNTED_HEADER,
  countVisit,
  json,
  MAX_BODY_BYTES,
  nowSeconds,
  onLinkDomain,
  paidAdClickIdOf,
  saltOf,
  SLUG,
  trackingSetup,
  type TrackingFetchHandler,
  type TrackingHandler,
  type TrackingOptions,
  type TrackingRequest,
  type TrackingResponse,
  type TrackingSetup,
} from './setup.js'

export type { TrackingFetchHandler, TrackingHandler, TrackingOptions, TrackingRequest, TrackingResponse, TrackingSetup, VisitCount } from './setup.js'
export { countVisit, onLinkDomain, trackingSetup } from './setup.js'
export { browserReport, browserSignup } from './browser-reports.js'

type TrackingAnswer = (request: TrackingRequest) => Promise<TrackingResponse>

/** GET <prefix>/:code or /:partner_slug/:code: counts the visit and redirects with the referral. */
export async function linkRedirect(setup: TrackingSetup, request: TrackingRequest, segments: string[], query: URLSearchParams): Promise<TrackingResponse> {
  const { program, options, cookieName, cookieSeconds } = setup
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }
  headers.Location = redirectTarget(query.get('to'), setup.landingUrl, setup.allowed)
  const [slug, code] = segments.length === 2 ? segments : [undefined, segments[0]]
  if (code === undefined || !CODE.test(code) || (slug !== undefined && !SLUG.test(slug))) {
    setup.options.onVisit?.({ counted: 'unknown-code', referralCode: code ?? '', via: 'link', userAgent: request.header('user-agent') ?? '' })
    return { status: 302, headers: { ...headers, [COUNTED_HEADER]: 'unknown-code' }, body: null }
  }
  const paidAdClickId = paidAdClickIdOf(query)
  const link = { referralCode: code, query, ...(slug === undefined ? {} : { partnerSlug: slug }), ...(paidAdClickId ? { paidAdClickId } : {}) }
  const { target: visited, bot, referral, counted } = await countVisit(setup, program, request, link)
  // Whether the visit counted, and why not: for the developer testing a link (docs/tracking.md "Testing locally").
  headers[COUNTED_HEADER] = counted
  const target = visited?.link ? linkTarget(setup, query, visited.link) : headers.Location
  headers.Location = target
  if (!visited || bot) return { status: 302, headers, body: null }
  const { affiliate } = visited
  const now = nowSeconds(setup)
  const current = readReferralCookie(request.header('cookie'), cookieName, now)
  const model = (await program.settings()).attribution?.model ?? 'first_click'
  const fresh = referral ?? { code: affiliate.referralCode, expires: now + cookieSeconds, value: `${affiliate.referralCode}.${now + cookieSeconds}` }
  // First click keeps a referral the browser already carries; last click replaces it. The same
  // referral stays unless this click signs it and the one carried is not signed.
  const keep =
    current !== null &&
    (current.code === fresh.code ? referral === null || verifyReferral(await saltOf(setup, program), current.value, now) !== null : model !== 'last_click')
  const carried = keep ? current : fresh
  if (!keep) {
    const secure = request.secure || (options.trustProxy === true && request.header('x-forwarded-proto') === 'https')
    headers['Set-Cookie'] = referralCookieHeader(cookieName, fresh, { secure, nowSeconds: now })
  }
  // The landing page may be on another host, where this cookie is not: the snippet there reads
  // the referral from this parameter and stores it as its own first-party cookie.
  headers.Location = withQueryParam(target, cookieName, carried.value)
  return { status: 302, headers, body: null }
}

/**
 * Where a link sends its visitor: `?to=`, else the link's destination, else the landing URL, with
 * the UTM defaults of the link it does not name (docs/links.md); the landing URL when that is not
 * an allowed origin, a destination imported before the origins were configured included.
 */
function linkTarget(setup: TrackingSetup, query: URLSearchParams, link: NonNullable<LinkTarget['link']>): string {
  const destination = redirectTarget(query.get('to') ?? link.destination, setup.landingUrl, setup.allowed)
  return linkDestination({ ...link, destination }, setup.landingUrl)
}

/**
 * The tracking surface's pipeline (server/pipeline.ts): observe → error answer, then the routes
 * below the prefix. The database unavailable is a 503 (507: its disk full) with Retry-After.
 */
export function trackingPipeline(setup: TrackingSetup): TrackingAnswer {
  const unavailable = errorAnswer<TrackingRequest, TrackingResponse>((error) => {
    const info = storageErrorInfo(error)
    if (!info) throw error
    return json(info.status, { error: info.message }, { 'Cache-Control': 'no-store', ...info.headers })
  })
  return pipeline<TrackingRequest, TrackingResponse>([observe('tracking', setup.options), unavailable], (request, exchange) => routeTracking(setup, request, exchange))
}

/** Routes a request below the prefix: the browser endpoints under `-/`, else a referral link. */
async function routeTracking(setup: TrackingSetup, request: TrackingRequest, exchange: Exchange): Promise<TrackingResponse> {
  const { prefix } = setup
  const mark = request.target.indexOf('?')
  const path = mark === -1 ? request.target : request.target.slice(0, mark)
  // A short domain serves its links at the root: `https://go.example/<key>`.
  const root = onLinkDomain(setup, request.header('host')) && path !== prefix && !path.startsWith(`${prefix}/`)
  if (!root && path !== prefix && !path.startsWith(`${prefix}/`)) return json(404, { error: `no route for ${request.method} ${path}` })
  const segments = path.slice(root ? 0 : prefix.length).split('/').filter((segment) => segment !== '')
  if (root && (segments.length !== 1 || segments[0] === '-')) return json(404, { error: `no route for ${request.method} ${path}` })
  if (segments[0] === '-') {
    const name = segments.length === 2 ? segments[1] : undefined
    if (name === 'clicks' || name === 'signups') {
      exchange.route = `${prefix}/-/${name}`
      return browserReport(setup, request, name)
    }
    if (name === 'incentive') {
      exchange.route = `${prefix}/-/${name}`
      return incentiveRead(setup, request)
    }
    if (name === 'affiliate-kit.js' && (request.method === 'GET' || request.method === 'HEAD')) {
      exchange.route = `${prefix}/-/${name}`
      return snippet(setup)
    }
    return json(404, { error: `no route for ${request.method} ${path}` })
  }
  // Codes and partner slugs never reach the log: only the link's shape.
  if (segments.length > 0) exchange.route = root ? '/:key' : segments.length === 1 ? `${prefix}/:code` : segments.length === 2 ? `${prefix}/:partner_slug/:code` : `${prefix}/:code/...`
  if (request.method !== 'GET' && request.method !== 'HEAD') return json(405, { error: 'referral links answer GET' }, { Allow: 'GET, HEAD' })
  if (segments.length > 2) return { status: 302, headers: { Location: setup.landingUrl, 'Cache-Control': 'no-store', [COUNTED_HEADER]: 'unknown-code' }, body: null }
  const query = new URLSearchParams(mark === -1 ? '' : request.target.slice(mark))
  return linkRedirect(setup, request, segments.map(decodeSegment), query)
}

/** The handler over a Fetch Request. */
async function fetchTracking(answer: TrackingAnswer, request: Request, info?: { clientAddress?: string }): Promise<Response> {
  const url = new URL(request.url)
  const response = await answer({
    method: request.method,
    target: `${url.pathname}${url.search}`,
    // A fetch Request carries its host in its URL (Host is not one of its headers).
    header: (name) => request.headers.get(name) ?? (name === 'host' ? url.host : null),
    address: info?.clientAddress ?? '',
    secure: url.protocol === 'https:',
    text: () => request.text().then((text) => text.slice(0, MAX_BODY_BYTES)),
  })
  return new Response(request.method === 'HEAD' ? null : response.body, { status: response.status, headers: response.headers })
}

/** The handler over node:http (and Express: an unexpected error goes to next). */
function nodeTracking(answer: TrackingAnswer, req: IncomingMessage, res: ServerResponse, next?: () => void): void {
  const request: TrackingRequest = {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    header(name) {
      const value = req.headers[name]
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
    },
    address: req.socket.remoteAddress ?? '',
    secure: 'encrypted' in req.socket && req.socket.encrypted === true,
    text: () => readBody(req),
  }
  answer(request).then(
    (response) => {
      // Content-Length even for a bodiless 302: without it node:http frames the answer as chunked.
      response.headers['Content-Length'] = response.body === null ? '0' : String(Buffer.byteLength(response.body))
      res.writeHead(response.status, response.headers)
      res.end(req.method === 'HEAD' ? undefined : (response.body ?? undefined))
    },
    (error: unknown) => {
      if (next) next()
      else {
        res.statusCode = 500
        res.end()
      }
      void error
    },
  )
}

export function createTrackingHandler(program: AffiliateProgram, options: TrackingOptions): TrackingHandler {
  const setup = trackingSetup(program, options)
  const answer = trackingPipeline(setup)
  const fetch: TrackingFetchHandler = (request, info) => fetchTracking(answer, request, info)
  const node: TrackingHandler['node'] = (req, res, next) => nodeTracking(answer, req, res, next)
  return Object.assign(fetch, { fetch, node, close: () => setup.clicks.close() })
}

/** A path segment as typed; a malformed escape stays as it is (and then matches no code). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.once('error', reject)
  })
}
