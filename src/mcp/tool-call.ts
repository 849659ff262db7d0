// A tool call: its arguments split into the request's path parameters, query and body, sent
// through the typed client (to the program in this process or to a server), and its answer or
// refusal as the tool's result. The API validates and checks scopes: a bad argument is its 400,
// a key without the scope its 403, both as a result with isError, never a thrown error.
import { ApiError, type Client } from '../client/index.js'
import { pathParamNames } from '../http/openapi.js'
import type { McpTool } from './tools.js'

/** What tools/call answers (the spec's CallToolResult: text, or an image such as a link's QR code). */
export interface McpToolResult {
  content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>
  isError?: boolean
  [key: string]: unknown
}

type Request = { params: Record<string, string>; query: Record<string, string>; body?: unknown }

class ArgumentError extends Error {}

const text = (value: string, isError = false): McpToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) })

/** A path or query value: text, or a number or boolean as text (assistants send ids as numbers). */
function scalar(name: string, value: unknown): string {
  if (typeof value === 'string') return value
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value)
  throw new ArgumentError(`${name}: must be a string`)
}

function requestOf(tool: McpTool, args: unknown): Request {
  if (args === undefined || args === null) args = {}
  if (typeof args !== 'object' || Array.isArray(args)) throw new ArgumentError('the arguments must be an object')
  const given = args as Record<string, unknown>
  const pathNames = pathParamNames(tool.operation)
  const queryNames = Object.keys(tool.operation.query?.entries ?? {})
  const request: Request = { params: {}, query: {} }
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue
    if (pathNames.includes(name)) request.params[name] = scalar(name, value)
    else if (queryNames.includes(name)) request.query[name] = scalar(name, value)
    else if (name === 'body' && tool.operation.body) request.body = value
    else throw new ArgumentError(`unknown argument "${name}"; ${tool.name} takes ${[...pathNames, ...queryNames, ...(tool.operation.body ? ['body'] : [])].join(', ') || 'no arguments'}`)
  }
  const missing = pathNames.find((name) => request.params[name] === undefined || request.params[name] === '')
  if (missing !== undefined) throw new ArgumentError(`${missing}: required`)
  if (tool.operation.body && request.body === undefined) request.body = {}
  return request
}

/** Runs the tool's operation with these arguments; every failure is an error result. */
export async function callTool(client: Client, tool: McpTool, args: unknown): Promise<McpToolResult> {
  let request: Request
  try {
    request = requestOf(tool, args)
  } catch (error) {
    if (error instanceof ArgumentError) return text(`invalid arguments: ${error.message}`, true)
    throw error
  }
  const call = client.call as (key: string, input: Request) => Promise<unknown>
  try {
    const answer = await call(`${tool.operation.method} ${tool.operation.path}`, request)
    if (answer instanceof Blob) return { content: [{ type: 'image', data: Buffer.from(await answer.arrayBuffer()).toString('base64'), mimeType: answer.type }] }
    return text(answer === undefined ? `done (${tool.operation.method === 'DELETE' ? 'deleted' : 'no content'})` : JSON.stringify(answer, null, 2))
  } catch (error) {
    if (error instanceof ApiError) return text(`${error.status}: ${error.message}`, true)
    return text(`the request failed: ${(error as Error).message}`, true)
  }
}
