// The standalone server's payment-provider endpoints: POST /api/v1/providers/<name>/events for
// each provider in the config, answered in front of the API handler. No API key: the provider's
// signature authenticates the request. Each is served through its `node` member: no fetch Request
// or Response objects are built. Each request is logged and counted (surface `provider`), one
// refused for a bad signature too.
import type { AffiliateProgram } from '../core/program.js'
import type { DomainStore } from '../core/storage.js'
import { toNodeHandler, type NodeHandler } from '../server/node.js'
import type { ProviderHandler } from '../providers/handler.js'
import { lemonSqueezyHandler } from '../providers/lemon-squeezy/index.js'
import { paddleHandler } from '../providers/paddle/index.js'
import { stripeHandler } from '../providers/stripe/index.js'
import type { ServerConfig } from './config.js'
import { observed, type RequestObserver } from './observed-surface.js'
import { providerInUrl } from './provider-route.js'

/** The configured providers' handlers by URL name (stripe, paddle, lemon-squeezy). */
export function providerHandlers(
  program: AffiliateProgram,
  storage: DomainStore,
  config: ServerConfig['providers'],
  onError?: (error: unknown) => void,
): Map<string, ProviderHandler> {
  const handlers = new Map<string, ProviderHandler>()
  const common = { program, storage, ...(onError ? { onError } : {}) }
  if (config?.stripe) handlers.set('stripe', stripeHandler({ ...common, ...config.stripe }))
  if (config?.paddle) handlers.set('paddle', paddleHandler({ ...common, ...config.paddle }))
  if (config?.lemonSqueezy) handlers.set('lemon-squeezy', lemonSqueezyHandler({ ...common, ...config.lemonSqueezy }))
  return handlers
}

/** Sends provider event requests to their handler and everything else to `api`. */
export function withProviders(api: NodeHandler, handlers: Map<string, ProviderHandler>, observer?: RequestObserver): NodeHandler {
  if (handlers.size === 0) return api
  const routes = new Map(
    [...handlers].map(([name, handler]) => {
      const route = `/api/v1/providers/${name}/events`
      return [name, observed(toNodeHandler(handler), 'provider', () => route, observer)]
    }),
  )
  return (req, res, next) => {
    const name = providerInUrl(req.url)
    const route = name === undefined ? undefined : routes.get(name)
    return (route ?? api)(req, res, next)
  }
}
