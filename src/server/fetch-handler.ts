// The two ways every surface is served: a Fetch handler, and the same handler with a node:http
// entry that skips building Request / Response objects.
import type { NodeHandler } from './node.js'

export type FetchHandler = (request: Request) => Promise<Response>

/**
 * What createHandler returns: a fetch handler (callable itself, and as `fetch`), and `node`, the same
 * API served straight from node:http requests without building fetch Request / Response objects.
 */
export type Handler = FetchHandler & { fetch: FetchHandler; node: NodeHandler }
