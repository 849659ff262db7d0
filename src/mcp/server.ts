// createMcpServer: the REST operations as MCP tools and two resources, on the official SDK's
// low-level Server (its McpServer takes zod schemas; these tools' schemas are the JSON Schemas the
// OpenAPI document publishes). The SDK is an optional peer dependency, loaded on first use, and
// none of its types is in these declarations: the server is offered through McpTransport.
import type { Client } from '../client/index.js'
import type { AffiliateProgram } from '../core/program.js'
import type { HandlerOptions } from '../http/handler.js'
import { OPERATIONS, type Operation } from '../http/openapi.js'
import { loadSdk } from './sdk.js'
import { commissionsResource, packageDocsDir, packageVersion, settingsResource, type McpResource } from './resources.js'
import { clientSource, isProgram, programSource } from './source.js'
import { callTool } from './tool-call.js'
import { mcpTools, toolsFor, type McpTool } from './tools.js'

export interface McpServerOptions {
  /** With a program: the API key the tools call it with, a key of that program; its scopes decide the tools. Required there; a client brings its own. */
  apiKey?: string
  /** With a program: options of the REST handler the tools call (`auditLog`, `state`, `portal`...). @default rate limit off */
  handler?: HandlerOptions
  /** The operations offered as tools. @default OPERATIONS: every operation of the primary table */
  operations?: readonly Operation[]
  /** The folder docs/commissions.md is read from. @default the docs/ folder of this package */
  docsDir?: string
  /** @default 'affiliate-kit' */
  name?: string
}

/**
 * A transport of the MCP SDK (its Transport: StdioServerTransport, StreamableHTTPServerTransport,
 * InMemoryTransport...), declared here so that these types need no SDK.
 */
export interface McpTransport {
  start(): Promise<void>
  send(message: any, options?: any): Promise<void>
  close(): Promise<void>
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: any, extra?: any) => void) | undefined
}

export interface AffiliateMcpServer {
  /** The tools tools/list shows: those the key's scopes allow (a call of another is the API's 403). */
  readonly tools: readonly McpTool[]
  readonly resources: readonly McpResource[]
  /** Serves the MCP session on the transport. */
  connect(transport: McpTransport): Promise<void>
  close(): Promise<void>
}

/**
 * An MCP server whose tools are the REST API's operations: on a program (with `apiKey`), each call
 * goes through the program's REST handler in this process; on a typed client (createClient from
 * affiliate-kit/client), through the server it calls. Rejects when the key is refused, or without
 * the SDK (`npm i @modelcontextprotocol/sdk`).
 */
export async function createMcpServer(source: AffiliateProgram | Client, options: McpServerOptions = {}): Promise<AffiliateMcpServer> {
  const sdk = await loadSdk()
  const operations = options.operations ?? OPERATIONS
  const all = mcpTools(operations)
  const { client, scopes, settings } = isProgram(source) ? await programSource(source, options.apiKey, options.handler ?? {}) : await clientSource(source, operations)
  const tools = toolsFor(all, scopes)
  const shipped = packageDocsDir()
  const docsDir = options.docsDir ?? shipped
  const resources = [commissionsResource(docsDir), ...(settings ? [settingsResource(settings)] : [])]

  const server = new sdk.Server({ name: options.name ?? 'affiliate-kit', version: packageVersion(shipped) }, { capabilities: { tools: {}, resources: {} } })
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema, annotations }) => ({ name, title: annotations.title, description, inputSchema, annotations })),
  }))
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const tool = all.find((candidate) => candidate.name === request.params.name)
    if (!tool) return { content: [{ type: 'text' as const, text: `unknown tool "${request.params.name}"; tools/list names them` }], isError: true }
    try {
      return await callTool(client, tool, request.params.arguments)
    } catch (error) {
      return { content: [{ type: 'text' as const, text: `the call failed: ${(error as Error).message}` }], isError: true }
    }
  })
  server.setRequestHandler(sdk.ListResourcesRequestSchema, () => ({
    resources: resources.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType })),
  }))
  server.setRequestHandler(sdk.ReadResourceRequestSchema, async (request) => {
    const resource = resources.find((candidate) => candidate.uri === request.params.uri)
    if (!resource) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `unknown resource ${request.params.uri}; resources/list names them`)
    try {
      return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: await resource.read() }] }
    } catch (error) {
      throw new sdk.McpError(sdk.ErrorCode.InternalError, `${resource.name}: ${(error as Error).message}`)
    }
  })
  return {
    tools,
    resources,
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
  }
}
