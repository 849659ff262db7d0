// The two ways every surface is served: a Fetch handler, and the same handler with a node:http
// entry that skips building Request / Response objects.
import type { IncomingMessage, ServerResponse } from 'node:http'

export type FetchHandler = (request: Request) => Promise<Response>

/** A node:http (or Express) request listener: toNodeHandler's and serveNode's answer (node.ts). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/**
 * What createHandler returns: a fetch handler (callable itself, and as `fetch`), and `node`, the same
 * API served straight from node:http requests without building fetch Request / Response objects.
 */
export type Handler = FetchHandler & { fetch: FetchHandler; node: NodeHandler }
