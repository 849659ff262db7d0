// createTrackingHandler(program, options): the referral-link surface beside the API handler
// (docs/tracking.md). GET <prefix>/:code and <prefix>/:partner_slug/:code count a visit once per
// visitor per day (bots and an address's visitors past its daily bound not at all), set the
// referral cookie and redirect with the referral in the landing URL; <prefix>/-/clicks and
// -/signups take reports from the browser snippet with a publishable key, a signup only with the
// signed referral of a click; <prefix>/-/affiliate-kit.js serves the snippet.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isbot } from 'isbot'
import { referralClient } from '../browser/referral-client.js'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import type { BrowserSignupOutcome, VisitResult } from '../core/visits.js'
import { errorInfo } from '../server/errors.js'
import { createRateLimiter, type RateLimitOptions } from '../server/rate-limit.js'
import type { KeyedStateStore } from '../core/keyed-state.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { addressBlock, forwardedClient } from '../web/client-address.js'
import { addressBudget } from './address-budget.js'
import { readReferralCookie, referralCookieHeader, type ReferralCookie } from './cookie.js'
import { normalizeOrigins, redirectTarget, withQueryParam } from './redirect-target.js'
import { signReferral, verifyReferral } from './referral-token.js'
import { newVisitorSalt, visitorHash } from './visitor.js'

export interface TrackingOptions {
  /** Where visitors go when a link has no allowed `?to=`, and for unknown or inactive codes. */
  landingUrl: string
  /** Origins `?to=` may point at and the snippet may report from (CORS), besides the landing URL's own. @default [] */
  allowedOrigins?: string[]
  /** Path of the referral links: `<prefix>/<code>`. @default '/r' */
  prefix?: string
  /** @default 'ak_ref' */
  cookieName?: string
  /** Lifetime of the referral cookie. @default 60 */
  cookieDays?: number
  /** Query parameters the served snippet reads a referral code from. @default ['ref', 'via'] */
  queryParams?: string[]
  /** Browser reports per client address (hashed; an IPv6 /64 as one); false turns it off. @default { limit: 30, windowSeconds: 60 } */
  rateLimit?: RateLimitOptions | false
  /**
   * New visitors one client address (an IPv6 /64 counts as one) may add per day, over links and
   * click reports; past it a visit counts nothing and gets no signed referral. false: no bound. @default 20
   */
  visitorsPerAddress?: number | false
  /**
   * Where the per-visitor limits are kept: the storage's `keyedState` shares them between
   * processes. @default a store in this handler's memory
   */
  state?: KeyedStateStore
  /** Take the client address from the last X-Forwarded-For entry (the one your reverse proxy appends) and https from X-Forwarded-Proto. @default false */
  trustProxy?: boolean
}

/** What the handler reads of a request, from fetch or node:http alike. */
export interface TrackingRequest {
  method: string
  /** Path and query. */
  target: string
  header(name: string): string | null
  /** The connected client's address, '' when unknown. */
  address: string
  secure: boolean
  text(): Promise<string>
}

export interface TrackingResponse {
  status: number
  headers: Record<string, string>
  body: string | null
}

export type TrackingFetchHandler = (request: Request, info?: { clientAddress?: string }) => Promise<Response>
export type TrackingHandler = TrackingFetchHandler & {
  fetch: TrackingFetchHandler
  node: (req: IncomingMessage, res: ServerResponse, next?: () => void) => void
}

const MAX_BODY_BYTES = 4096
const CODE = /^[A-Za-z0-9_-]{3,64}$/
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

function json(status: number, body: unknown, headers: Record<string, string> = {}): TrackingResponse {
  return { status, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }, body: JSON.stringify(body) }
}

/** What the handler's functions share: the options checked and resolved once, at creation. */
export interface TrackingSetup {
  program: AffiliateProgram
  options: TrackingOptions
  landingUrl: string
  /** Origins `?to=` may point at and the snippet may report from. */
  allowed: Set<string>
  prefix: string
  cookieName: string
  cookieSeconds: number
  state: KeyedStateStore
  limiter: ReturnType<typeof createRateLimiter>
  budget: ReturnType<typeof addressBudget> | null
  /** Each project's salt as read (or being read) from the storage. */
  salts: Map<string, Promise<string>>
  /** The served snippet, built on first request. */
  script?: string
}

export function trackingSetup(program: AffiliateProgram, options: TrackingOptions): TrackingSetup {
  const landingUrl = new URL(options.landingUrl).href
  const cookieName = options.cookieName ?? 'ak_ref'
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cookieName)) throw new TypeError('cookieName must be letters, digits, _ or -')
  const state = options.state ?? memoryKeyedState()
  const perAddress = options.visitorsPerAddress ?? 20
  if (perAddress !== false && !(Number.isSafeInteger(perAddress) && perAddress >= 1)) throw new TypeError('visitorsPerAddress must be a positive integer or false')
  return {
    program,
    options,
    landingUrl,
    allowed: normalizeOrigins([new URL(landingUrl).origin, ...(options.allowedOrigins ?? [])]),
    prefix: `/${options.prefix ?? 'r'}`.replace(/\/+/g, '/').replace(/\/$/, ''),
    cookieName,
    cookieSeconds: (options.cookieDays ?? 60) * 86_400,
    state,
    limiter: createRateLimiter(options.rateLimit ?? { limit: 30, windowSeconds: 60 }, state),
    budget: perAddress === false ? null : addressBudget(state, perAddress),
    salts: new Map(),
  }
}

/** The project's secret salt in the storage: it hashes visitors and signs referrals. */
function saltOf(setup: TrackingSetup, scope: ProjectScope): Promise<string> {
  let salt = setup.salts.get(scope.projectId)
  if (!salt) {
    salt = scope.tracking.visitorSalt(newVisitorSalt())
    setup.salts.set(scope.projectId, salt)
    salt.catch(() => setup.salts.delete(scope.projectId))
  }
  return salt
}

const nowSeconds = (setup: TrackingSetup) => Math.floor(setup.program.clock.now().getTime() / 1000)

function clientAddressOf(setup: TrackingSetup, request: TrackingRequest): string {
  return forwardedClient(request.header('x-forwarded-for'), request.address, setup.options.trustProxy === true) ?? ''
}

/**
 * Counts a visit unless the visitor is a bot or its address used up its new visitors of the
 * day; a visit that counted, or whose visitor counted earlier today, gets a signed referral.
 */
export async function countVisit(
  setup: TrackingSetup,
  scope: ProjectScope,
  request: TrackingRequest,
  link: { referralCode: string; partnerSlug?: string },
): Promise<{ visit: VisitResult; bot: boolean; referral: ReferralCookie | null }> {
  const { budget } = setup
  const userAgent = request.header('user-agent') ?? ''
  const bot = userAgent === '' || isbot(userAgent)
  if (bot) return { visit: await scope.tracking.visit({ ...link, visitor: null }), bot, referral: null }
  const salt = await saltOf(setup, scope)
  const address = clientAddressOf(setup, request)
  const now = setup.program.clock.now().getTime()
  const budgetKey = `tracking-visitors:${visitorHash(salt, 'address', addressBlock(address), '')}`
  const admitted = budget ? await budget.take(budgetKey, now) : true
  let visitor = ''
  const visit = await scope.tracking.visit({ ...link, visitor: admitted ? (day) => (visitor = visitorHash(salt, day, address, userAgent)) : null })
  if (budget && admitted && !visit.counted) await budget.giveBack(budgetKey)
  const referral =
    visit.affiliate && visitor !== '' ? signReferral(salt, { code: visit.affiliate.referralCode, expires: nowSeconds(setup) + setup.cookieSeconds, visitor: visitor.slice(0, 16) }) : null
  return { visit, bot, referral }
}

/** GET <prefix>/:code or /:partner_slug/:code: counts the visit and redirects with the referral. */
export async function linkRedirect(setup: TrackingSetup, request: TrackingRequest, segments: string[], query: URLSearchParams): Promise<TrackingResponse> {
  const { program, options, cookieName, cookieSeconds } = setup
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }
  const target = redirectTarget(query.get('to'), setup.landingUrl, setup.allowed)
  headers.Location = target
  const [slug, code] = segments.length === 2 ? segments : [undefined, segments[0]]
  if (code === undefined || !CODE.test(code) || (slug !== undefined && !SLUG.test(slug))) return { status: 302, headers, body: null }
  const { visit, bot, referral } = await countVisit(setup, program, request, { referralCode: code, ...(slug === undefined ? {} : { partnerSlug: slug }) })
  if (!visit.affiliate || bot) return { status: 302, headers, body: null }
  const now = nowSeconds(setup)
  const current = readReferralCookie(request.header('cookie'), cookieName, now)
  const model = (await program.settings()).attribution?.model ?? 'first_click'
  const fresh = referral ?? { code: visit.affiliate.referralCode, expires: now + cookieSeconds, value: `${visit.affiliate.referralCode}.${now + cookieSeconds}` }
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

function cors(setup: TrackingSetup, request: TrackingRequest): Record<string, string> | null {
  const origin = request.header('origin')
  if (origin === null) return {}
  if (!setup.allowed.has(origin)) return null
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
}

/** POST <prefix>/-/clicks and -/signups: the snippet's reports, with a publishable key. */
export async function browserReport(setup: TrackingSetup, request: TrackingRequest, action: string): Promise<TrackingResponse> {
  const { program, limiter } = setup
  const corsHeaders = cors(setup, request)
  if (corsHeaders === null) return json(403, { error: 'this origin may not report to the tracking handler' }, { Vary: 'Origin' })
  if (request.method === 'OPTIONS') {
    return {
      status: 204,
      headers: { ...corsHeaders, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'authorization, content-type', 'Access-Control-Max-Age': '600' },
      body: null,
    }
  }
  if (request.method !== 'POST') return json(405, { error: `${request.method} is not allowed here` }, { ...corsHeaders, Allow: 'POST, OPTIONS' })
  const match = /^Bearer[ ]+(rgp_\S+)\s*$/i.exec(request.header('authorization') ?? '')
  const key = match ? await program.verifyApiKey(match[1]!) : null
  if (!key?.publishable) return json(401, { error: 'send a publishable key: Authorization: Bearer rgp_...' }, corsHeaders)
  const address = clientAddressOf(setup, request)
  const salted = await saltOf(setup, program)
  if (limiter) {
    const outcome = await limiter(`tracking:${visitorHash(salted, 'rate', addressBlock(address), '')}`, program.clock.now().getTime())
    Object.assign(corsHeaders, outcome.headers)
    if (!outcome.allowed) return json(429, { error: 'too many reports from this visitor; retry after the Retry-After seconds' }, corsHeaders)
  }
  if (!/^application\/json\s*(;|$)/i.test(request.header('content-type') ?? '')) return json(415, { error: 'Content-Type must be application/json' }, corsHeaders)
  const raw = await request.text()
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return json(400, { error: 'body: is not valid JSON' }, corsHeaders)
  }
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null
  if (!fields) return json(400, { error: 'body: must be a JSON object' }, corsHeaders)
  const scope: ProjectScope = program.project(key.projectId)
  try {
    if (action === 'clicks') return await browserClick(setup, scope, request, fields, corsHeaders)
    return await browserSignup(setup, scope, fields, corsHeaders)
  } catch (error) {
    const info = errorInfo(error)
    if (!info || info.status >= 500) throw error
    return json(info.status, { error: info.message }, corsHeaders)
  }
}

/** A click the snippet saw (a landing with ?ref=): counted like a link visit. */
async function browserClick(setup: TrackingSetup, scope: ProjectScope, request: TrackingRequest, fields: Record<string, unknown>, corsHeaders: Record<string, string>): Promise<TrackingResponse> {
  const code = fields.referral_code
  if (typeof code !== 'string') return json(400, { error: 'referral_code: must be a string' }, corsHeaders)
  if (Object.keys(fields).some((name) => name !== 'referral_code')) return json(400, { error: 'body: only referral_code is accepted' }, corsHeaders)
  const { visit, referral } = await countVisit(setup, scope, request, { referralCode: code })
  if (!visit.affiliate) return json(404, { error: 'no active affiliate has this referral code' }, corsHeaders)
  return json(visit.counted ? 201 : 200, { counted: visit.counted, ...(referral ? { referral: referral.value } : {}) }, corsHeaders)
}

/**
 * A signup from the browser: attributed only with the signed referral of a click (never a bare
 * code), once per visitor and day, and never to a customer already known.
 */
export async function browserSignup(setup: TrackingSetup, scope: ProjectScope, fields: Record<string, unknown>, corsHeaders: Record<string, string>): Promise<TrackingResponse> {
  const { state } = setup
  const { email, referral, referral_code: code, ...rest } = fields
  if (Object.keys(rest).length > 0) return json(400, { error: `unknown field "${Object.keys(rest)[0]}"` }, corsHeaders)
  if (typeof referral !== 'string') {
    return json(403, { error: 'referral: a browser signup needs the signed referral a link click gave this visitor (the snippet sends it)' }, corsHeaders)
  }
  const signed = verifyReferral(await saltOf(setup, scope), referral, nowSeconds(setup))
  if (!signed) return json(403, { error: 'referral: not a signed referral of this program, or it expired' }, corsHeaders)
  if (code !== undefined && (typeof code !== 'string' || code.toLowerCase() !== signed.code.toLowerCase())) {
    return json(400, { error: 'referral_code: must be the code of the signed referral' }, corsHeaders)
  }
  const now = setup.program.clock.now()
  const claim = { projectId: scope.projectId, key: `tracking-signup:${signed.visitor}`, createdAt: now }
  const standing = await state.claim({
    ...claim,
    fingerprint: 'browser signup',
    response: { status: 201, body: '' },
    leaseUntil: new Date(signed.expires * 1000),
    expiresAt: new Date(signed.expires * 1000),
  })
  if (standing) return json(409, { error: 'referral: this visitor already signed up with it' }, corsHeaders)
  let outcome: BrowserSignupOutcome | undefined
  try {
    outcome = await scope.tracking.browserSignup({ email: email as string, referralCode: signed.code })
  } finally {
    // Any answer uses the referral up, 'unchanged' too: one click tests at most one email for
    // being a customer already. Only a refusal (bad input, no such affiliate) leaves it.
    if (outcome === undefined) await state.release(claim.projectId, claim.key, claim.createdAt)
  }
  return json(outcome === 'created' ? 201 : 200, { outcome }, corsHeaders)
}

/** GET <prefix>/-/affiliate-kit.js: the browser snippet, configured for this handler. */
function snippet(setup: TrackingSetup): TrackingResponse {
  const config = { params: setup.options.queryParams ?? ['ref', 'via'], cookieName: setup.cookieName, cookieDays: setup.cookieSeconds / 86_400 }
  // The page names its key and the model in data- attributes of the script tag; the endpoint is the script's own origin.
  setup.script ??= `(function(){var s=document.currentScript,c=${JSON.stringify(config)};c.endpoint=new URL(${JSON.stringify(`${setup.prefix}/-`)},s.src).href;c.key=s.dataset.key;c.model=s.dataset.model;var k=(${referralClient.toString()})(c);window.affiliateKit=k;k.capture();})();`
  return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300' }, body: setup.script }
}

/** Routes a request below the prefix: the browser endpoints under `-/`, else a referral link. */
export async function answerTracking(setup: TrackingSetup, request: TrackingRequest): Promise<TrackingResponse> {
  const { prefix } = setup
  const mark = request.target.indexOf('?')
  const path = mark === -1 ? request.target : request.target.slice(0, mark)
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return json(404, { error: `no route for ${request.method} ${path}` })
  const segments = path.slice(prefix.length).split('/').filter((segment) => segment !== '')
  if (segments[0] === '-') {
    if (segments.length === 2 && (segments[1] === 'clicks' || segments[1] === 'signups')) return browserReport(setup, request, segments[1])
    if (segments.length === 2 && segments[1] === 'affiliate-kit.js' && (request.method === 'GET' || request.method === 'HEAD')) return snippet(setup)
    return json(404, { error: `no route for ${request.method} ${path}` })
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return json(405, { error: 'referral links answer GET' }, { Allow: 'GET, HEAD' })
  if (segments.length > 2) return { status: 302, headers: { Location: setup.landingUrl, 'Cache-Control': 'no-store' }, body: null }
  const query = new URLSearchParams(mark === -1 ? '' : request.target.slice(mark))
  return linkRedirect(setup, request, segments.map(decodeSegment), query)
}

/** The handler over a Fetch Request. */
async function fetchTracking(setup: TrackingSetup, request: Request, info?: { clientAddress?: string }): Promise<Response> {
  const url = new URL(request.url)
  const response = await answerTracking(setup, {
    method: request.method,
    target: `${url.pathname}${url.search}`,
    header: (name) => request.headers.get(name),
    address: info?.clientAddress ?? '',
    secure: url.protocol === 'https:',
    text: () => request.text().then((text) => text.slice(0, MAX_BODY_BYTES)),
  })
  return new Response(request.method === 'HEAD' ? null : response.body, { status: response.status, headers: response.headers })
}

/** The handler over node:http (and Express: an unexpected error goes to next). */
function nodeTracking(setup: TrackingSetup, req: IncomingMessage, res: ServerResponse, next?: () => void): void {
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
  answerTracking(setup, request).then(
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
  const fetch: TrackingFetchHandler = (request, info) => fetchTracking(setup, request, info)
  const node: TrackingHandler['node'] = (req, res, next) => nodeTracking(setup, req, res, next)
  return Object.assign(fetch, { fetch, node })
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
