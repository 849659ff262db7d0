// The tracking handler's options checked once (trackingSetup), what every path shares (the
// project's salt, the client address) and counting one visit (countVisit): used by the referral
// links (handler.ts) and the snippet's reports (browser-reports.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isbot } from 'isbot'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import type { VisitResult } from '../core/affiliates/visits.js'
import { PAID_AD_CLICK_IDS, type PaidAdClickId } from '../core/rules/fraud/signals.js'
import { createRateLimiter, type RateLimitOptions } from '../server/rate-limit.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import type { Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import { memoryKeyedState } from '../adapters/memory/keyed-state.js'
import { addressBlock, forwardedClient } from '../web/client-address.js'
import { addressBudget } from './address-budget.js'
import type { ReferralCookie } from './cookie.js'
import { normalizeOrigins } from './redirect-target.js'
import { signReferral } from './referral-token.js'
import { newVisitorSalt, shortVisitor, visitorHash } from './visitor.js'

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
  /**
   * Told of each link visit and click report: whether it counted and, when not, why (the standalone
   * server logs the ones that counted nothing at debug). The answer says the same in its
   * `X-Affiliate-Kit-Counted` header.
   */
  onVisit?: (visit: { counted: VisitCount; referralCode: string; via: 'link' | 'click-report'; userAgent: string }) => void
  /** Gets one line per request (method, route pattern, status, duration in ms, request id; 5xx as errors); never a code. @default none */
  logger?: Logger
  /** Counts the requests and their latency by route pattern (createMetrics). @default none */
  metrics?: Metrics
}

/**
 * Whether a visit counted: `yes`; `repeat` (this visitor counted earlier today: its referral is
 * signed all the same); or why it counted nothing: `bot` (an empty or a crawler's User-Agent,
 * docs/tracking.md), `over-limit` (its address added its new visitors of the day), `unknown-code`
 * (no active affiliate has the code, or the link is malformed).
 */
export type VisitCount = 'yes' | 'repeat' | 'bot' | 'over-limit' | 'unknown-code'

export const COUNTED_HEADER = 'X-Affiliate-Kit-Counted'

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

export const MAX_BODY_BYTES = 4096
export const CODE = /^[A-Za-z0-9_-]{3,64}$/
export const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

export function json(status: number, body: unknown, headers: Record<string, string> = {}): TrackingResponse {
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
export function saltOf(setup: TrackingSetup, scope: ProjectScope): Promise<string> {
  let salt = setup.salts.get(scope.projectId)
  if (!salt) {
    salt = scope.tracking.visitorSalt(newVisitorSalt())
    setup.salts.set(scope.projectId, salt)
    salt.catch(() => setup.salts.delete(scope.projectId))
  }
  return salt
}

/** The paid ad's click id a landing carries (Google's gclid, Meta's fbclid, Microsoft's msclkid), for the fraud rules. */
export function paidAdClickIdOf(query: URLSearchParams): PaidAdClickId | undefined {
  return PAID_AD_CLICK_IDS.find((name) => (query.get(name) ?? '') !== '')
}

export const nowSeconds = (setup: TrackingSetup) => Math.floor(setup.program.clock.now().getTime() / 1000)

export function clientAddressOf(setup: TrackingSetup, request: TrackingRequest): string {
  return forwardedClient(request.header('x-forwarded-for'), request.address, setup.options.trustProxy === true) ?? ''
}

/**
 * Counts a visit unless the visitor is a bot or its address used up its new visitors of the
 * day; a visit that counted, or whose visitor counted earlier today, gets a signed referral.
 * `counted` says which, and onVisit is told.
 */
export async function countVisit(
  setup: TrackingSetup,
  scope: ProjectScope,
  request: TrackingRequest,
  link: { referralCode: string; partnerSlug?: string; paidAdClickId?: PaidAdClickId },
  via: 'link' | 'click-report' = 'link',
): Promise<{ visit: VisitResult; bot: boolean; referral: ReferralCookie | null; counted: VisitCount }> {
  const { budget } = setup
  const userAgent = request.header('user-agent') ?? ''
  const bot = userAgent === '' || isbot(userAgent)
  const told = (counted: VisitCount) => (setup.options.onVisit?.({ counted, referralCode: link.referralCode, via, userAgent }), counted)
  if (bot) {
    const visit = await scope.tracking.visit({ ...link, visitor: null })
    return { visit, bot, referral: null, counted: told(visit.affiliate ? 'bot' : 'unknown-code') }
  }
  const salt = await saltOf(setup, scope)
  const address = clientAddressOf(setup, request)
  const now = setup.program.clock.now().getTime()
  const budgetKey = `tracking-visitors:${visitorHash(salt, 'address', addressBlock(address), '')}`
  const admitted = budget ? await budget.take(budgetKey, now) : true
  let visitor = ''
  const visit = await scope.tracking.visit({ ...link, visitor: admitted ? (day) => (visitor = visitorHash(salt, day, address, userAgent)) : null })
  if (budget && admitted && !visit.counted) await budget.giveBack(budgetKey)
  const referral =
    visit.affiliate && visitor !== '' ? signReferral(salt, { code: visit.affiliate.referralCode, expires: nowSeconds(setup) + setup.cookieSeconds, visitor: shortVisitor(visitor) }) : null
  const counted: VisitCount = !visit.affiliate ? 'unknown-code' : !admitted ? 'over-limit' : visit.counted ? 'yes' : 'repeat'
  return { visit, bot, referral, counted: told(counted) }
}
