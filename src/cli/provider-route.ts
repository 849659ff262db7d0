// The URL of a payment provider's event endpoint on the standalone server,
// POST /api/v1/providers/<name>/events, and the answer for a provider the config does not name.
import { PROVIDER_NAMES } from '../core/model/types.js'
import { providerConfigKey, PROVIDERS } from '../providers/registry.js'
import type { IncomingRequest, OutgoingResponse } from '../server/bodies.js'
import { serveNode, type NodeHandler } from '../server/node.js'
import { observe, type RequestObserver } from '../server/observe.js'
import { pipeline } from '../server/pipeline.js'

const ROUTE = /^\/api\/v1\/providers\/([a-z-]+)\/events\/?(?:\?.*)?$/
/** Each provider's config key by its URL name. */
const KNOWN: Record<string, string> = Object.fromEntries(PROVIDER_NAMES.map((name) => [name, providerConfigKey(name)]))
/** What each provider's config entry holds, as the 404 says it. */
const ENTRY: Record<string, string> = Object.fromEntries(PROVIDER_NAMES.map((name) => [name, PROVIDERS[name].config.example]))

/** The provider named by an event endpoint's URL (`stripe` in /api/v1/providers/stripe/events), else undefined. */
export const providerInUrl = (url: string | undefined): string | undefined => ROUTE.exec(url ?? '')?.[1]

/** The route the log and metrics name for a provider's event endpoint. */
export const providerRoute = (name: string) => `/api/v1/providers/${name}/events`

/**
 * Answers 404, saying what to configure, at the event endpoint of a provider the config does not
 * name; the API would answer 401 for the missing API key, which misleads whoever reads the
 * provider's failed deliveries.
 */
export function withUnconfiguredProviders(api: NodeHandler, configured: ReadonlySet<string>, observer: RequestObserver = {}): NodeHandler {
  const refuse = serveNode(
    pipeline<IncomingRequest, OutgoingResponse>([observe('provider', observer)], async (request, exchange) => {
      const name = providerInUrl(request.target)!
      const key = KNOWN[name]
      exchange.route = providerRoute(key ? name : ':provider')
      const error = key
        ? `payment provider "${name}" is not configured on this server: add "providers": { "${key}": ${ENTRY[name]} } to its config`
        : `no payment provider "${name}": the providers are ${Object.keys(KNOWN).join(', ')}`
      return { status: 404, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ error }) }
    }),
  )
  return (req, res, next) => {
    const name = providerInUrl(req.url)
    return name === undefined || configured.has(name) ? api(req, res, next) : refuse(req, res, next)
  }
}
