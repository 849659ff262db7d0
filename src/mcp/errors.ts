// Why an MCP server cannot start: no SDK, no key, a key its program or server refuses, no server.
export class McpSetupError extends Error {
  override name = 'McpSetupError'
}
