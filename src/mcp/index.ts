// affiliate-kit/mcp: the REST API's operations as the tools of an MCP server (docs/mcp.md).
export { createMcpServer } from './server.js'
export type { AffiliateMcpServer, McpServerOptions, McpTransport } from './server.js'
export type { McpTool, McpToolAnnotations } from './tools.js'
export type { McpResource } from './resources.js'
export type { McpToolResult } from './tool-call.js'
export { McpSetupError } from './errors.js'
