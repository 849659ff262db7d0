// What the tools call: a program in this process, through its own REST handler (the same routes,
// scopes and validation as the API), or a server, through the typed client. Either way a typed
// client does the calling; the key's scopes come from the program or, from a server, by asking it.
import { createClient, type Client } from '../client/index.js'
import type { AffiliateProgram } from '../core/program.js'
import type { Scope } from '../core/model/types.js'
import { createHandler, type HandlerOptions } from '../http/handler.js'
import type { Operation } from '../http/openapi.js'
import { McpSetupError } from './errors.js'
import { probeScopes } from './key-scopes.js'

/** The client the tools call with, the key's scopes, and the program's settings when they can be read. */
export interface ToolSource {
  client: Client
  scopes: Scope[]
  settings: (() => Promise<unknown>) | null
}

/** A program is told from a client by its key verifier. */
export const isProgram = (source: AffiliateProgram | Client): source is AffiliateProgram => 'keyVerifier' in source

// The in-process requests never leave the process: the host only makes a URL of them.
const IN_PROCESS_API = 'http://affiliate-kit.invalid/api/v1'

export async function programSource(program: AffiliateProgram, apiKey: string | undefined, handlerOptions: HandlerOptions): Promise<ToolSource> {
  if (!apiKey) throw new McpSetupError('an MCP server on a program needs an API key of that program (apiKey; the CLI reads AFFILIATE_KIT_API_KEY or --api-key): its scopes decide the tools')
  const key = await program.keyVerifier()(apiKey)
  if (key === null) throw new McpSetupError('the API key is not a key of this program (unknown, revoked or malformed): "affiliate-kit keys list" shows its keys, "keys create" makes one')
  if (key.publishable) throw new McpSetupError('a publishable key (rgp_) cannot call the API: use a secret key (rgk_)')
  const handler = createHandler(program, { rateLimit: false, ...handlerOptions })
  const client = createClient({ baseURL: IN_PROCESS_API, apiKey, fetch: (input, init) => handler.fetch(new Request(input, init)) })
  return { client, scopes: key.scopes, settings: () => program.project(key.projectId).settings() }
}

export async function clientSource(client: Client, operations: readonly Operation[]): Promise<ToolSource> {
  return { client, scopes: await probeScopes(client, operations), settings: null }
}
