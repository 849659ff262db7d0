// The scopes of the key a server-side client holds. The REST API has no "who am I", but it checks
// a key's scope before it reads a request's input (docs/api.md "Order of checks"), so one request
// per scope whose input the route refuses tells them apart: 403 lacks it, 400 has it. The request
// never reaches the route's work: nothing is read or written by it.
import { ApiError, type Client } from '../client/index.js'
import type { Scope } from '../core/model/types.js'
import { pathParamNames, type Operation } from '../http/openapi.js'
import { McpSetupError } from './errors.js'

/** A request to `operation` its route refuses for its input: an unknown query parameter, a body that is not an object, or ids of 0. */
function refusedInput(operation: Operation) {
  return {
    params: Object.fromEntries(pathParamNames(operation).map((name) => [name, '0'])),
    ...(operation.query ? { query: { mcp_scope_probe: '1' } } : {}),
    ...(operation.body ? { body: [] } : {}),
  }
}

/** The operation a scope is probed with: one whose refused input stops it before any work. */
function probeOf(operations: readonly Operation[], scope: Scope): Operation | undefined {
  const ofScope = operations.filter((operation) => operation.scope === scope)
  return ofScope.find((operation) => operation.query || operation.body) ?? ofScope.find((operation) => pathParamNames(operation).length > 0) ?? ofScope.find((operation) => operation.method === 'GET')
}

/** The scopes of the operations that the client's key may call; throws when the server refuses the key itself. */
export async function probeScopes(client: Client, operations: readonly Operation[]): Promise<Scope[]> {
  const call = client.call as (key: string, input: object) => Promise<unknown>
  const scopes = [...new Set(operations.map((operation) => operation.scope))]
  const granted: Scope[] = []
  for (const scope of scopes) {
    const probe = probeOf(operations, scope)
    if (!probe) continue
    const status = await call(`${probe.method} ${probe.path}`, refusedInput(probe)).then(
      () => 200,
      (error: unknown) => {
        if (error instanceof ApiError) return error.status
        throw new McpSetupError(`cannot reach the API: ${(error as Error).message}`)
      },
    )
    if (status === 401) throw new McpSetupError('the server refused the API key (401): it is unknown, revoked or malformed there')
    if (status !== 403) granted.push(scope)
  }
  if (granted.length === 0) throw new McpSetupError('the server lets this key call no operation (a publishable rgp_ key calls none): use a secret key with the scopes the tools need')
  return granted
}
