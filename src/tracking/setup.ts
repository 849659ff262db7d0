// The tracking handler's options checked once (trackingSetup), what every path shares (the
// project's salt, the client address) and counting one visit (countVisit): used by the referral
// links (handler.ts) and the snippet's reports (browser-reports.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isbot } from 'isbot'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import type { LinkTarget } from '../core/affiliates/visits.js'
import type { ClickOutcome, ClickVisit } from '../core/affiliates/click-flush.js'
import { clickId } from '../core/model/click-id.js'
import { createClickBuffer, type ClickBuffer, type ClickBufferOptions } from './click-buffer.js'
import { clickCampaign, deviceOf, referrerHost } from './click-details.js'
import { countryLookup, type CountryLookup, type CountryOptions } from './country.js'
import { linkCache } from './link-cache.js'
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
  /** When counted clicks are written (docs/analytics.md "The click path"). @default each before its visit is answered */
  clicks?: ClickBufferOptions
  /** How long a link's lookup is kept in memory: a blocked affiliate's or deleted link's visits still count that long. @default 0 (the standalone server: 10) */
  linkCacheSeconds?: number
  /** Where a click's country comes from: a trusted header, a MaxMind database (docs/analytics.md "Country"). @default none */
  country?: CountryOptions
  /** Short domains (host names): a request to one of them for `/<key>` is a visit of that link (docs/links.md "Short domains"). @default [] */
  linkDomains?: string[]
}

/**
 * Whether a visit counted: `yes`; `repeat` (this visitor counted earlier today: its referral is
 * signed all the same); `queued` (with a click buffer: counted when it is written); or why it counted nothing: `bot` (an empty or a crawler's User-Agent,
 * docs/tracking.md), `over-limit` (its address added its new visitors of the day), `unknown-code`
 * (no active affiliate has the code, or the link is malformed).
 */
export type VisitCount = 'yes' | 'repeat' | 'queued' | 'bot' | 'over-limit' | 'unknown-code'

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
  /** Writes the clicks waiting in the buffer and stops its timer: call it when the server stops. */
  close: () => Promise<void>
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
  /** The queue counted clicks wait in. */
  clicks: ClickBuffer
  /** A link token's affiliate and link (cached for linkCacheSeconds). */
  resolve: (token: string, partnerSlug?: string) => Promise<LinkTarget | null>
  /** The click's country; opens the MaxMind database first when one is configured. */
  country: Promise<CountryLookup>
  /** The short domains, lower case. */
  linkDomains: ReadonlySet<string>
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
    clicks: createClickBuffer((visits) => program.tracking.recordClicks(visits), options.clicks, options.logger),
    resolve: linkCache((token, slug) => program.tracking.resolve(token, slug), options.linkCacheSeconds ?? 0, () => program.clock.now().getTime()),
    country: countryLookup(options.country),
    linkDomains: linkDomainSet(options.linkDomains),
  }
}

/** Short domains as onLinkDomain compares them: lower case. */
export function linkDomainSet(hosts: readonly string[] = []): ReadonlySet<string> {
  return new Set(hosts.map((host) => host.toLowerCase()))
}

/** Whether the request is for a short domain: its Host (without the port) is one of them. */
export function onLinkDomain(setup: Pick<TrackingSetup, 'linkDomains'>, host: string | null | undefined): boolean {
  if (setup.linkDomains.size === 0 || !host) return false
  return setup.linkDomains.has(host.replace(/:\d+$/, '').toLowerCase())
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

/** What a visit through a link brings besides its token: the sub-program's slug, the landing's query, the link's campaign. */
export interface VisitedLink {
  referralCode: string
  partnerSlug?: string
  paidAdClickId?: PaidAdClickId
  query?: URLSearchParams
}

export interface CountedVisit {
  /** The active affiliate the token names and its link; null for an unknown or inactive one. */
  target: LinkTarget | null
  bot: boolean
  referral: ReferralCookie | null
  counted: VisitCount
}

/**
 * Counts a visit unless its address used up its new visitors of the day (a bot's counts apart);
 * a visit that counts, or whose visitor counted earlier, gets a signed referral naming its click.
 * With a click buffer the visit is answered before its click is written (`queued`). `counted`
 * says which, and onVisit is told.
 */
export async function countVisit(setup: TrackingSetup, scope: ProjectScope, request: TrackingRequest, link: VisitedLink, via: 'link' | 'click-report' = 'link'): Promise<CountedVisit> {
  const { budget, clicks } = setup
  const userAgent = request.header('user-agent') ?? ''
  const bot = userAgent === '' || isbot(userAgent)
  const told = (counted: VisitCount) => (setup.options.onVisit?.({ counted, referralCode: link.referralCode, via, userAgent }), counted)
  const target = await setup.resolve(link.referralCode, link.partnerSlug)
  if (!target) return { target, bot, referral: null, counted: told('unknown-code') }
  const salt = await saltOf(setup, scope)
  const address = clientAddressOf(setup, request)
  const at = setup.program.clock.now()
  const budgetKey = budget && !bot ? `tracking-visitors:${visitorHash(salt, 'address', addressBlock(address), '')}` : null
  if (budgetKey && !(await budget!.take(budgetKey, at.getTime()))) return { target, bot, referral: null, counted: told('over-limit') }
  const day = await scope.tracking.dayOf(at)
  const visitor = bot ? null : visitorHash(salt, day, address, userAgent)
  const affiliateId = target.affiliate.id
  const linkId = target.link?.id ?? null
  const id = visitor === null ? '' : clickId(salt, { visitor, affiliateId, linkId, at })
  const country = (await setup.country)(request.header.bind(request), address)
  const visit: ClickVisit = {
    ...clickCampaign(link.query ?? new URLSearchParams(), target.link),
    id,
    at,
    day,
    affiliateId,
    linkId,
    visitor,
    referrerHost: referrerHost(request.header('referer')),
    country,
    ...deviceOf(userAgent),
    ...(link.paidAdClickId && !bot ? { paidAdClickId: link.paidAdClickId } : {}),
  }
  const written = clicks.add(visit)
  // A visitor that was not new gives back its place in the address's budget of new visitors.
  const giveBack = (outcome: ClickOutcome) => (budgetKey && !outcome.newVisitor ? budget!.giveBack(budgetKey) : undefined)
  let counted: VisitCount
  if (clicks.waits) {
    const outcome = await written
    await giveBack(outcome)
    counted = bot ? 'bot' : outcome.counted || outcome.newVisitor ? 'yes' : 'repeat'
  } else {
    written.then(giveBack).catch(() => undefined)
    counted = bot ? 'bot' : 'queued'
  }
  const referral = visitor === null ? null : signReferral(salt, { code: target.affiliate.referralCode, expires: nowSeconds(setup) + setup.cookieSeconds, visitor: shortVisitor(visitor), click: id })
  return { target, bot, referral, counted: told(counted) }
}
