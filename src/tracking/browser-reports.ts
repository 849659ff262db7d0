// The browser snippet's endpoints: POST <prefix>/-/clicks and -/signups with a publishable key
// (CORS from the allowed origins, a rate limit per address), and the snippet itself.
import { referralClient } from '../browser/referral-client.js'
import type { ProjectScope } from '../core/program.js'
import type { BrowserSignupOutcome } from '../core/affiliates/visits.js'
import { errorInfo } from '../server/errors.js'
import { publishableKeyAuthentication, type KeyedRequest } from '../server/key-authentication.js'
import { pipeline, type Step } from '../server/pipeline.js'
import { addressBlock } from '../web/client-address.js'
import { PAID_AD_CLICK_IDS } from '../core/rules/fraud/signals.js'
import { verifyReferral } from './referral-token.js'
import { visitorHash } from './visitor.js'
import { clientAddressOf, COUNTED_HEADER, countVisit, json, nowSeconds, saltOf, type TrackingRequest, type TrackingResponse, type TrackingSetup } from './setup.js'

function cors(setup: TrackingSetup, request: TrackingRequest): Record<string, string> | null {
  const origin = request.header('origin')
  if (origin === null) return {}
  if (!setup.allowed.has(origin)) return null
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': COUNTED_HEADER }
}

/** A report as its steps learn it: the CORS headers every answer carries, then the publishable key. */
export interface ReportCall extends TrackingRequest, KeyedRequest {
  corsHeaders: Record<string, string>
}

/**
 * POST <prefix>/-/clicks and -/signups: the snippet's reports. Their steps (server/pipeline.ts):
 * the origin (CORS, the preflight, POST only) → publishable key → the visitor's rate limit, then
 * the report.
 */
export function browserReport(setup: TrackingSetup, request: TrackingRequest, action: string): Promise<TrackingResponse> {
  const keyed = publishableKeyAuthentication<ReportCall, TrackingResponse>(setup.program.verifyApiKey, ({ corsHeaders }) =>
    json(401, { error: 'send a publishable key: Authorization: Bearer rgp_...' }, corsHeaders),
  )
  const run = pipeline<ReportCall, TrackingResponse>([allowedOrigin(setup), keyed, reportLimit(setup)], (call) => report(setup, call, action))
  // Over the request as its prototype: a host's request object may keep its methods on its class.
  return run(Object.assign(Object.create(request) as TrackingRequest, { corsHeaders: {}, key: null }))
}

/** Only the allowed origins (their CORS headers on every answer after); the preflight answered; `method` (POST) only. */
export function allowedOrigin(setup: TrackingSetup, method = 'POST'): Step<ReportCall, TrackingResponse> {
  return async (call, exchange, next) => {
    const corsHeaders = cors(setup, call)
    if (corsHeaders === null) return json(403, { error: 'this origin may not report to the tracking handler' }, { Vary: 'Origin' })
    if (call.method === 'OPTIONS') {
      return {
        status: 204,
        headers: { ...corsHeaders, 'Access-Control-Allow-Methods': method, 'Access-Control-Allow-Headers': 'authorization, content-type', 'Access-Control-Max-Age': '600' },
        body: null,
      }
    }
    if (call.method !== method) return json(405, { error: `${call.method} is not allowed here` }, { ...corsHeaders, Allow: `${method}, OPTIONS` })
    call.corsHeaders = corsHeaders
    return next(call, exchange)
  }
}

/** The reports of one visitor (its address block, salted) within the tracking limit; null (left out) without one. */
export function reportLimit(setup: TrackingSetup): Step<ReportCall, TrackingResponse> | null {
  const { program, limiter } = setup
  if (!limiter) return null
  return async (call, exchange, next) => {
    const salted = await saltOf(setup, program)
    const outcome = await limiter(`tracking:${visitorHash(salted, 'rate', addressBlock(clientAddressOf(setup, call)), '')}`, program.clock.now().getTime())
    Object.assign(call.corsHeaders, outcome.headers)
    if (!outcome.allowed) return json(429, { error: 'too many reports from this visitor; retry after the Retry-After seconds' }, call.corsHeaders)
    return next(call, exchange)
  }
}

/** The report itself: a JSON object, a click or a signup of the key's project. */
async function report(setup: TrackingSetup, request: ReportCall, action: string): Promise<TrackingResponse> {
  const { corsHeaders, key } = request
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
  const scope: ProjectScope = setup.program.project(key!.projectId)
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
  const { referral_code: code, paid_ad_click_id: paidAd, ...rest } = fields
  if (typeof code !== 'string') return json(400, { error: 'referral_code: must be a string' }, corsHeaders)
  if (Object.keys(rest).length > 0) return json(400, { error: 'body: only referral_code and paid_ad_click_id are accepted' }, corsHeaders)
  const paidAdClickId = PAID_AD_CLICK_IDS.find((name) => name === paidAd)
  if (paidAd !== undefined && !paidAdClickId) return json(400, { error: `paid_ad_click_id: must be one of ${PAID_AD_CLICK_IDS.join(', ')}` }, corsHeaders)
  const { target, referral, counted } = await countVisit(setup, scope, request, { referralCode: code, ...(paidAdClickId ? { paidAdClickId } : {}) }, 'click-report')
  const headers = { ...corsHeaders, [COUNTED_HEADER]: counted }
  if (!target) return json(404, { error: 'no active affiliate has this referral code' }, headers)
  return json(counted === 'yes' ? 201 : counted === 'queued' ? 202 : 200, { counted: counted === 'yes', ...(referral ? { referral: referral.value } : {}) }, headers)
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
    outcome = await scope.tracking.browserSignup({ email: email as string, referralCode: signed.code, click: referral })
  } finally {
    // Any answer uses the referral up, 'unchanged' too: one click tests at most one email for
    // being a customer already. Only a refusal (bad input, no such affiliate) leaves it.
    if (outcome === undefined) await state.release(claim.projectId, claim.key, claim.createdAt)
  }
  return json(outcome === 'created' ? 201 : 200, { outcome }, corsHeaders)
}

/** GET <prefix>/-/affiliate-kit.js: the browser snippet, configured for this handler. */
export function snippet(setup: TrackingSetup): TrackingResponse {
  const config = { params: setup.options.queryParams ?? ['ref', 'via'], cookieName: setup.cookieName, cookieDays: setup.cookieSeconds / 86_400 }
  // The page names its key and the model in data- attributes of the script tag; the endpoint is the script's own origin.
  setup.script ??= `(function(){var s=document.currentScript,c=${JSON.stringify(config)};c.endpoint=new URL(${JSON.stringify(`${setup.prefix}/-`)},s.src).href;c.key=s.dataset.key;c.model=s.dataset.model;var k=(${referralClient.toString()})(c);window.affiliateKit=k;k.capture();})();`
  return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300' }, body: setup.script }
}
