// The MCP SDK, an optional peer dependency: loaded on first use, its absence one line saying what to install.
import { McpSetupError } from './errors.js'

export async function loadSdk() {
  try {
    const [server, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')])
    return {
      Server: server.Server,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      CallToolRequestSchema: types.CallToolRequestSchema,
      ListResourcesRequestSchema: types.ListResourcesRequestSchema,
      ReadResourceRequestSchema: types.ReadResourceRequestSchema,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (error as { code?: string }).code === 'MODULE_NOT_FOUND') {
      throw new McpSetupError('affiliate-kit/mcp needs the MCP SDK beside affiliate-kit: run "npm i @modelcontextprotocol/sdk"')
    }
    throw error
  }
}

/** The SDK's transport over this process's stdin and stdout. */
export async function stdioTransport() {
  await loadSdk()
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js')
  return new StdioServerTransport()
}
