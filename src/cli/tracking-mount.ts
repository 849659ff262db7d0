// The standalone server's referral links (config `tracking`, docs/tracking.md): requests under
// the tracking prefix go to the tracking handler (logged and counted, surface `tracking`),
// everything else to the API.
import type { AffiliateProgram } from '../core/program.js'
import type { KeyedStateStore } from '../core/keyed-state.js'
import type { NodeHandler } from '../server/node.js'
import { createTrackingHandler } from '../tracking/handler.js'
import type { ServerConfig } from './config.js'
import { observed, trackingRoutes, type RequestObserver } from './observed-surface.js'

export function withTracking(program: AffiliateProgram, state: KeyedStateStore, config: ServerConfig['tracking'], api: NodeHandler, observer?: RequestObserver): NodeHandler {
  if (!config) return api
  const prefix = config.prefix ?? '/r'
  const tracking = observed(createTrackingHandler(program, { ...config, state }).node, 'tracking', trackingRoutes(prefix), observer)
  return (req, res, next) => {
    const url = req.url ?? '/'
    const under = url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)
    return (under ? tracking : api)(req, res, next)
  }
}
