// Commands through the running server: embedded PGlite allows one process per data directory,
// so `serve` answers `keys create|list|revoke`, `portal link`, `payouts run`, `providers events`
// and `import` on a Unix socket inside that directory (as private as the database files beside it), and those
// commands use it when the server holds the lock; a second `serve` asks it where it listens, to
// say so. One JSON request per connection, one JSON answer; an import answers JSON lines (its
// progress, a heartbeat while it waits on the tool, then its outcome).
import { rmSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import type { ApiKeyView } from '../core/project/keys.js'
import type { PayoutRunResult } from '../core/payouts/payout-runs.js'
import type { CreateApiKeyInput, ListProviderEventsInput } from '../core/model/schemas.js'
import type { ProviderEventView } from '../core/provider-events/index.js'
import type { AffiliateProgram } from '../index.js'
import type { ImportOutcomeLines, ImportSpec } from './import-spec.js'
import { CliError } from './errors.js'

export const KEY_SOCKET = 'affiliate-kit.sock'

/** The key operations the commands need, local (the program) or through the server. */
export type KeyOperations = Pick<AffiliateProgram['keys'], 'create' | 'createPublishable' | 'list' | 'revoke'>

/** A portal sign-in link for an affiliate's email, as the server's portal config makes it. */
export type PortalLinkOperation = (email: string) => Promise<{ url: string; expiresAt: Date }>

/** A payout run through the server's configured providers; null when it has none (no payoutProviders). */
export type PayoutRunOperation = ((input: { dryRun: boolean }) => Promise<PayoutRunResult>) | null

/** The provider events as `providers events` lists them. */
export type ProviderEventsOperation = (filter: ListProviderEventsInput) => Promise<{ items: ProviderEventView[]; total: number }>

/** An import run in the server, its progress lines told as they come. */
export type ImportOperation = (spec: ImportSpec, line: (text: string) => void) => Promise<ImportOutcomeLines>

/** What the socket answers. */
export interface ServerOperations {
  importRun?: ImportOperation
  keys: KeyOperations
  portalLink: PortalLinkOperation
  payoutRun: PayoutRunOperation
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
  | { op: 'payout-run'; dryRun: boolean }
  | { op: 'provider-events'; filter: ListProviderEventsInput }
  | { op: 'about' }
  | { op: 'import'; spec: ImportSpec }

async function answer({ keys, portalLink, payoutRun, providerEvents, about }: ServerOperations, request: Request): Promise<unknown> {
  if (request.op === 'payout-run') {
    if (!payoutRun) throw new Error('this server sends no payouts: add payoutProviders to its config and start it again')
    return payoutRun({ dryRun: request.dryRun === true })
  }
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
      .then((text) => {
        // Read: the answer may take as long as the operation (a payout run sends one payout after another).
        socket.setTimeout(0)
        return JSON.parse(text) as Request
      })
      .then((request) => (request.op === 'import' && operations.importRun ? streamImport(socket, operations.importRun, request.spec) : answerOnce(socket, operations, request)))
      .catch(() => socket.destroy())
  })
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false)) // e.g. a path over the socket name limit (~107 bytes)
    server.listen(path, () => resolve(true))
  })
  if (!listening) return null
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

const replyOf = (error: unknown) => ({ error: { message: (error as Error).message, code: (error as { code?: string }).code ?? null } })

function answerOnce(socket: Socket, operations: ServerOperations, request: Request): Promise<void> {
  return answer(operations, request)
    .then(
      (result) => ({ result: result ?? null }),
      (error: unknown) => replyOf(error),
    )
    .then((reply) => void socket.end(JSON.stringify(reply)))
}

/** An import: a line per progress line, a heartbeat every 5 s (the socket's idle limit is 10 s), then the outcome. */
async function streamImport(socket: Socket, run: ImportOperation, spec: ImportSpec): Promise<void> {
  const send = (message: unknown) => socket.write(`${JSON.stringify(message)}\n`)
  const heartbeat = setInterval(() => send({ heartbeat: true }), 5000)
  try {
    const outcome = await run(spec, (line) => send({ line }))
    socket.end(`${JSON.stringify({ result: outcome })}\n`)
  } catch (error) {
    socket.end(`${JSON.stringify(replyOf(error))}\n`)
  } finally {
    clearInterval(heartbeat)
  }
}

/** The import through the server listening in dataDir, its progress lines told; null when none answers there. */
export async function importClient(dataDir: string): Promise<((spec: ImportSpec, log: (line: string) => void) => Promise<ImportOutcomeLines>) | null> {
  if ((await serverAbout(dataDir)) === null) return null
  return (spec, log) =>
    new Promise((resolve, reject) => {
      const socket = connect(join(dataDir, KEY_SOCKET))
      socket.end(JSON.stringify({ op: 'import', spec } satisfies Request))
      socket.setEncoding('utf8')
      let buffered = ''
      let done = false
      socket.on('data', (chunk: string) => {
        buffered += chunk
        for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
          const message = JSON.parse(buffered.slice(0, end)) as { line?: string; result?: ImportOutcomeLines; error?: { message: string; code: string | null } }
          buffered = buffered.slice(end + 1)
          if (message.line !== undefined) log(message.line)
          if (message.result) {
            done = true
            resolve(message.result)
          } else if (message.error) {
            done = true
            reject(Object.assign(new CliError(message.error.message), { code: message.error.code }))
          }
        }
      })
      socket.on('error', reject)
      socket.on('close', () => done || reject(new CliError(`the server on ${dataDir} stopped during the import: run it again (it resumes)`)))
    })
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
    payoutRun: async (input) => (await call({ op: 'payout-run', dryRun: input.dryRun })) as PayoutRunResult,
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
