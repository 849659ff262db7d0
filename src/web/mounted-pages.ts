// The request shell shared by the portal and the admin console: a Fetch handler for the pages under
// a base path, which answers 404 outside its routes, 405 (with Allow) for a method a route does not
// take, HEAD as GET, and a generic 500 page for an unexpected error (reported to onError). Each
// console keeps its own routes, sign-in and pages. Its pipeline (server/pipeline.ts): observe →
// route (404, 405) → error answer, then the page: the surface's public pages, or its steps for the
// pages behind a session (session authentication, CSRF protection) and the page.
import { storageErrorInfo } from '../server/errors.js'
import { toNodeHandler, type NodeHandler } from '../server/node.js'
import { errorAnswer, pipeline, type Exchange, type RequestLine, type Step } from '../server/pipeline.js'
import { observe, type RequestObserver } from '../server/observe.js'
import { UNMATCHED } from '../ops/request-log.js'
import { pageRoutes } from './page-routes.js'
import type { ClientInfo } from './client-address.js'
import { html, type Html } from './html.js'

/** A Fetch handler of pages: a Fetch host may pass who is connected (`{ clientAddress }`), node:http passes it itself. */
export type PagesFetchHandler = (request: Request, client?: ClientInfo) => Promise<Response>
/** Callable itself and as `fetch`, with `node` for node:http and Express. */
export type PagesHandler = PagesFetchHandler & { fetch: PagesFetchHandler; node: NodeHandler }

export interface MountedPages {
  /** '/portal', '/admin', or '' at the root (see normalizeBasePath). */
  base: string
  /** The methods a route (the path below the base) answers; null when there is no such page. */
  allowed(route: string): string[] | null
  /** The answer to an allowed request (`call.pageMethod` is GET for HEAD): the surface's pages, its own steps before those behind a session. */
  answer(call: PageCall, exchange: Exchange): Promise<Response>
  /** A page in the console's frame, signed out. */
  page(title: string, body: Html, status: number): Response
  /** The console's "not found" page. */
  notFound(): Response
  /** The page for an error the console answers itself (bad input, a missing record), or null for an unexpected one. */
  refusal(error: unknown): Response | null
  onError(error: unknown): void
  /** Which surface its log lines and metrics name. */
  surface: 'portal' | 'console'
  /** Where its request records go (a log line and metrics per request). @default none */
  observer?: RequestObserver
  /** The pages' paths object (portalPaths, adminPaths): the words of its paths name the routes in the log. */
  paths: object
}

/** The base path without trailing slashes; throws unless it is '' or a plain path such as /admin. */
export function normalizeBasePath(basePath: string | undefined, fallback: string): string {
  const base = (basePath ?? fallback).replace(/\/+$/, '')
  if (base !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(base)) throw new TypeError(`basePath must be a path such as ${fallback}`)
  return base
}

/** A page request as the pipeline's steps learn it: its route below the base, once found. */
export interface PageCall extends RequestLine {
  request: Request
  url: URL
  client: ClientInfo | undefined
  route: string
  /** GET for HEAD. */
  pageMethod: string
}

export function mountedPages(pages: MountedPages): PagesHandler {
  const routeOf = pageRoutes(pages.paths)

  /** 404 outside the pages, 405 (with Allow) for a method a route does not take. */
  const routed: Step<PageCall, Response> = async (call, exchange, next) => {
    const { pathname } = call.url
    const inside = pathname === pages.base || pathname.startsWith(`${pages.base}/`)
    const route = inside ? pathname.slice(pages.base.length) || '/' : null
    const methods = route === null ? null : pages.allowed(route)
    if (route === null || methods === null) return pages.notFound()
    exchange.route = routeOf(pathname)
    call.route = route
    call.pageMethod = call.method === 'HEAD' ? 'GET' : call.method
    if (!methods.includes(call.pageMethod)) {
      const response = pages.page('Method not allowed', html`<h1>Method not allowed</h1>`, 405)
      response.headers.set('allow', methods.join(', '))
      return response
    }
    const response = await next(call, exchange)
    // A record that is not there (a made-up id) is logged like a page that is not.
    if (response.status === 404) exchange.route = UNMATCHED
    return response
  }

  /** Bad input and missing records as the console's pages; an unavailable database as 503 (507); anything else reported, with a generic 500 page. */
  const refused = errorAnswer<PageCall, Response>((error) => {
    const refusal = pages.refusal(error)
    if (refusal) return refusal
    const unavailable = storageErrorInfo(error)
    if (unavailable) {
      const response = pages.page('Try again in a moment', html`<h1>Try again in a moment</h1><p>${unavailable.message}</p>`, unavailable.status)
      for (const [name, value] of Object.entries(unavailable.headers ?? {})) response.headers.set(name, value)
      return response
    }
    pages.onError(error)
    return pages.page('Something went wrong', html`<h1>Something went wrong</h1><p>Please try again in a moment.</p>`, 500)
  })

  const run = pipeline<PageCall, Response>([observe(pages.surface, pages.observer ?? {}), routed, refused], (call, exchange) => pages.answer(call, exchange))
  async function dispatch(request: Request, client?: ClientInfo): Promise<Response> {
    const url = new URL(request.url)
    const header = (name: string) => request.headers.get(name)
    return run({ request, url, client, method: request.method, target: `${url.pathname}${url.search}`, header, route: '', pageMethod: '' })
  }
  const handler = ((request: Request, client?: ClientInfo) => dispatch(request, client)) as PagesHandler
  handler.fetch = dispatch
  handler.node = (req, res, next) => toNodeHandler((request) => dispatch(request, { clientAddress: req.socket.remoteAddress ?? '' }))(req, res, next)
  return handler
}
