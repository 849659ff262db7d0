// The standalone server's referral links (config `tracking`, docs/tracking.md): requests under
// the tracking prefix go to the tracking handler (logged and counted by its pipeline, surface
// `tracking`; a visit that counted nothing is one debug line saying why), everything else to the API.
import type { AffiliateProgram } from '../core/program.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import type { NodeHandler } from '../server/node.js'
import type { RequestObserver } from '../server/observe.js'
import { createTrackingHandler, onLinkDomain, type TrackingOptions, type VisitCount } from '../tracking/handler.js'
import { CODE, linkDomainSet } from '../tracking/setup.js'
import type { ServerConfig } from './config.js'

/** Why a visit counted nothing, in the debug line (docs/tracking.md "Testing locally"). */
const COUNTED_WHY: Record<Exclude<VisitCount, 'yes'>, string> = {
  repeat: 'this visitor counted earlier today; its referral is signed all the same',
  queued: 'counted when the click buffer is written (tracking.clicks.flushMilliseconds)',
  bot: 'the User-Agent is empty or a crawler\'s; a browser\'s counts',
  'over-limit': 'this address added its new visitors of the day (tracking.visitorsPerAddress)',
  'unknown-code': 'no active affiliate has this code',
}

/** The clicks' defaults of the standalone server: written in the background each second, links looked up once per 10 s. */
export const SERVER_CLICKS = { flushMilliseconds: 1000 }
export const SERVER_LINK_CACHE_SECONDS = 10

/** The API with the tracking surface in front of it, and what writes the clicks still waiting (on close). */
export function withTracking(
  program: AffiliateProgram,
  state: KeyedStateStore,
  config: NonNullable<ServerConfig['tracking']>,
  api: NodeHandler,
  observer: RequestObserver = {},
): { handler: NodeHandler; close: () => Promise<void> } {
  const prefix = config.prefix ?? '/r'
  const { logger, metrics } = observer
  const onVisit: TrackingOptions['onVisit'] = logger
    ? ({ counted, referralCode, via, userAgent }) => {
        if (counted === 'yes' || counted === 'queued') return
        const why = COUNTED_WHY[counted]
        logger.debug(`referral ${via === 'link' ? 'link visit' : 'click report'} for "${referralCode}" counted nothing: ${counted} (${why})`, { code: referralCode, counted, userAgent: userAgent.slice(0, 200) })
      }
    : undefined
  const clicks = { ...SERVER_CLICKS, ...config.clicks }
  const linkCacheSeconds = config.linkCacheSeconds ?? SERVER_LINK_CACHE_SECONDS
  const tracking = createTrackingHandler(program, { ...config, clicks, linkCacheSeconds, state, ...(onVisit ? { onVisit } : {}), ...(logger ? { logger } : {}), ...(metrics ? { metrics } : {}) })
  const domains = { linkDomains: linkDomainSet(config.linkDomains) }
  const handler: NodeHandler = (req, res, next) => {
    const url = req.url ?? '/'
    const under = url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)
    // A short domain's links are at its root; its other paths (the API's included) are the API's.
    const short = !under && onLinkDomain(domains, req.headers.host) && CODE.test(url.slice(1).split('?')[0]!)
    return (under || short ? tracking.node : api)(req, res, next)
  }
  return { handler, close: tracking.close }
}
