// Commands through the running server: embedded PGlite allows one process per data directory,
// so `serve` answers `keys create|list|revoke`, `portal link` and `providers events` on a Unix
// socket inside that directory (as private as the database files beside it), and those commands
// use it when the server holds the lock; a second `serve` asks it where it listens, to say so.
// One JSON request per connection, one JSON answer.
import { rmSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import type { ApiKeyView } from '../core/keys.js'
import type { CreateApiKeyInput, ListProviderEventsInput } from '../core/schemas.js'
import type { ProviderEventView } from '../core/provider-events.js'
import type { AffiliateProgram } from '../index.js'
import { CliError } from './errors.js'

export const KEY_SOCKET = 'affiliate-kit.sock'

/** The key operations the commands need, local (the program) or through the server. */
export type KeyOperations = Pick<AffiliateProgram['keys'], 'create' | 'createPublishable' | 'list' | 'revoke'>

/** A portal sign-in link for an affiliate's email, as the server's portal config makes it. */
export type PortalLinkOperation = (email: string) => Promise<{ url: string; expiresAt: Date }>

/** The provider events as `providers events` lists them. */
export type ProviderEventsOperation = (filter: ListProviderEventsInput) => Promise<{ items: ProviderEventView[]; total: number }>

/** What the socket answers. */
export interface ServerOperations {
  keys: KeyOperations
  portalLink: PortalLinkOperation
  providerEvents: ProviderEventsOperation
  /** The server's process and the URL of its API. */
  about: () => { pid: number; url: string }
}

type Request =
  | { op: 'create'; input: CreateApiKeyInput }
  | { op: 'create-publishable'; input: { name?: string } }
  | { op: 'list' }
  | { op: 'revoke'; id: number }
  | { op: 'portal-link'; email: string }
  | { op: 'provider-events'; filter: ListProviderEventsInput }
  | { op: 'about' }

async function answer({ keys, portalLink, providerEvents, about }: ServerOperations, request: Request): Promise<unknown> {
  if (request.op === 'create') return keys.create(request.input)
  if (request.op === 'create-publishable') return keys.createPublishable(request.input)
  if (request.op === 'list') return keys.list()
  if (request.op === 'revoke') return keys.revoke(request.id)
  if (request.op === 'portal-link') return portalLink(request.email)
  if (request.op === 'provider-events') {
    const { items, total } = await providerEvents(request.filter)
    return { items, total }
  }
  if (request.op === 'about') return about()
  throw new Error('unknown operation')
}

function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (text += chunk))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
}

/** Serves the operations on dataDir/affiliate-kit.sock; resolves with its close function, or null when it cannot listen. */
export async function serveKeySocket(dataDir: string, operations: ServerOperations): Promise<(() => Promise<void>) | null> {
  const path = join(dataDir, KEY_SOCKET)
  rmSync(path, { force: true }) // left by a server that was killed: we hold the directory's lock now
  // Half-open: the request ends with the end of its stream, the answer is written after it.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    socket.setTimeout(10_000, () => socket.destroy()) // an idle client must not hold up the server's stop
    void readAll(socket)
      .then((text) => answer(operations, JSON.parse(text) as Request))
      .then(
        (result) => ({ result: result ?? null }),
        (error: unknown) => ({ error: { message: (error as Error).message, code: (error as { code?: string }).code ?? null } }),
      )
      .then((reply) => socket.end(JSON.stringify(reply)))
  })
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false)) // e.g. a path over the socket name limit (~107 bytes)
    server.listen(path, () => resolve(true))
  })
  if (!listening) return null
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

/** The operations through the server listening in dataDir; null when none answers there. */
export async function keySocketClient(dataDir: string): Promise<ServerOperations | null> {
  const path = join(dataDir, KEY_SOCKET)
  const call = async (request: Request): Promise<unknown> => {
    const socket = connect(path)
    socket.end(JSON.stringify(request))
    const reply = JSON.parse(await readAll(socket)) as { result: unknown } | { error: { message: string; code: string | null } }
    // The server's answer to a bad request (an unknown id, a bad name) is a line for the user.
    if ('error' in reply) throw Object.assign(new CliError(reply.error.message), { code: reply.error.code })
    return reply.result
  }
  try {
    await call({ op: 'list' })
  } catch {
    return null
  }
  const dated = (view: ApiKeyView): ApiKeyView => ({ ...view, createdAt: new Date(view.createdAt), revokedAt: view.revokedAt && new Date(view.revokedAt) })
  const created = async (request: Request) => {
    const { key, record } = (await call(request)) as { key: string; record: ApiKeyView }
    return { key, record: dated(record) }
  }
  return {
    keys: {
      create: (input) => created({ op: 'create', input: input ?? {} }),
      createPublishable: (input) => created({ op: 'create-publishable', input: input ?? {} }),
      list: async () => ((await call({ op: 'list' })) as ApiKeyView[]).map(dated),
      revoke: async (id) => {
        await call({ op: 'revoke', id })
      },
    },
    portalLink: async (email) => {
      const link = (await call({ op: 'portal-link', email })) as { url: string; expiresAt: string }
      return { url: link.url, expiresAt: new Date(link.expiresAt) }
    },
    providerEvents: async (filter) => {
      const { items, total } = (await call({ op: 'provider-events', filter })) as { items: ProviderEventView[]; total: number }
      return { items: items.map((event) => ({ ...event, createdAt: new Date(event.createdAt), occurredAt: new Date(event.occurredAt), updatedAt: new Date(event.updatedAt) })), total }
    },
    about: () => {
      throw new Error('about is asked with serverAbout()')
    },
  }
}

/** Where the server holding dataDir listens (its pid and API URL); null when none answers on the socket. */
export async function serverAbout(dataDir: string): Promise<{ pid: number; url: string } | null> {
  const path = join(dataDir, KEY_SOCKET)
  try {
    const socket = connect(path)
    socket.end(JSON.stringify({ op: 'about' } satisfies Request))
    const reply = JSON.parse(await readAll(socket)) as { result?: { pid: number; url: string } }
    return reply.result ?? null
  } catch {
    return null
  }
}
