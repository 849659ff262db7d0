// The standalone server's referral links (config `tracking`, docs/tracking.md): requests under
// the tracking prefix go to the tracking handler, everything else to the API.
import type { AffiliateProgram } from '../core/program.js'
import type { KeyedStateStore } from '../http/keyed-state.js'
import type { NodeHandler } from '../http/node.js'
import { createTrackingHandler } from '../tracking/handler.js'
import type { ServerConfig } from './config.js'

export function withTracking(program: AffiliateProgram, state: KeyedStateStore, config: ServerConfig['tracking'], api: NodeHandler): NodeHandler {
  if (!config) return api
  const prefix = config.prefix ?? '/r'
  const tracking = createTrackingHandler(program, { ...config, state }).node
  return (req, res, next) => {
    const url = req.url ?? '/'
    const under = url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)
    return (under ? tracking : api)(req, res, next)
  }
}
