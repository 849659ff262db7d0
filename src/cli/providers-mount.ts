// The standalone server's payment-provider endpoints: POST /api/v1/providers/<name>/events for
// each provider in the config (the registry's providers, src/providers/registry.ts), answered in
// front of the API handler. No API key: the provider's signature authenticates the request. Each
// is served through its `node` member: no fetch Request or Response objects are built. Each
// request is logged and counted by the handler's pipeline (surface `provider`), one refused for a
// bad signature too.
import type { AffiliateProgram } from '../core/program.js'
import { PROVIDER_NAMES } from '../core/model/types.js'
import { toNodeHandler, type NodeHandler } from '../server/node.js'
import type { RequestObserver } from '../server/observe.js'
import type { ProviderHandler } from '../providers/handler.js'
import { providerConfigKey, PROVIDERS, type ProviderConfig } from '../providers/registry.js'
import type { ServerConfig } from './config.js'
import { CliError } from './errors.js'
import { providerInUrl, providerRoute } from './provider-route.js'

/** The configured providers' handlers by URL name (stripe, paddle, lemon-squeezy...). */
export async function providerHandlers(program: AffiliateProgram, config: ServerConfig['providers'], onError?: (error: unknown) => void, observer: RequestObserver = {}): Promise<Map<string, ProviderHandler>> {
  const handlers = new Map<string, ProviderHandler>()
  for (const name of PROVIDER_NAMES) {
    const options = config?.[providerConfigKey(name)] as ProviderConfig | undefined
    if (!options) continue
    // A provider's optional package missing (braintree): its one-line message, not a stack.
    const handler = await PROVIDERS[name].load().catch((error: unknown) => {
      throw (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' ? new CliError((error as Error).message) : error
    })
    const { logger, metrics } = observer
    handlers.set(name, handler({ program, ...(onError ? { onError } : {}), ...(logger ? { logger } : {}), ...(metrics ? { metrics } : {}), route: providerRoute(name), ...options }))
  }
  return handlers
}

/** Sends provider event requests to their handler and everything else to `api`. */
export function withProviders(api: NodeHandler, handlers: Map<string, ProviderHandler>): NodeHandler {
  if (handlers.size === 0) return api
  const routes = new Map([...handlers].map(([name, handler]) => [name, toNodeHandler(handler)]))
  return (req, res, next) => {
    const name = providerInUrl(req.url)
    const route = name === undefined ? undefined : routes.get(name)
    return (route ?? api)(req, res, next)
  }
}
