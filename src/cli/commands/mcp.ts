// `affiliate-kit mcp`: an MCP server on stdio (docs/mcp.md) whose tools are the REST operations the
// key's scopes allow. On the program of --database (or DATABASE_URL), opened in this process; on
// embedded PGlite that a server holds, through that server; with --url, through the server there.
// stdout carries the protocol, so every line of its own goes to stderr.
import { DataDirLockedError } from '../../adapters/pglite/data-dir-lock.js'
import { createClient } from '../../client/index.js'
import type { AffiliateMcpServer } from '../../mcp/index.js'
import { McpSetupError } from '../../mcp/errors.js'
import type { Command, OptionValues } from '../command.js'
import { DATABASE_HELP, databaseTarget, openProgram } from '../database.js'
import { CliError, usageError } from '../errors.js'
import { serverAbout } from '../key-socket.js'
import { lockedMessage } from '../locked.js'

const note = (line: string) => console.error(`affiliate-kit mcp: ${line}`)

function apiKeyOf(values: OptionValues): string {
  const key = (values['api-key'] as string | undefined) || process.env.AFFILIATE_KIT_API_KEY
  if (key) return key
  throw new CliError(
    'affiliate-kit mcp needs an API key of the program: set AFFILIATE_KIT_API_KEY (or --api-key); ' +
      '"affiliate-kit keys create --scopes affiliates:read,conversions:read" makes a read-only one, scope * one that may write',
  )
}

function apiUrlOf(text: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) throw new CliError(`--url must be the http(s) URL of a server's API, such as http://127.0.0.1:8787/api/v1; got "${text}"`)
  return text
}

/** The server and what closes it after the session: the program in this process, or nothing (a server). */
async function start(values: OptionValues, apiKey: string): Promise<{ server: AffiliateMcpServer; where: string; close: () => Promise<void> }> {
  const { createMcpServer } = await import('../../mcp/index.js')
  const remote = async (url: string, where: string) => ({ server: await createMcpServer(createClient({ baseURL: url, apiKey })), where, close: async () => {} })
  if (values.url !== undefined) return remote(apiUrlOf(values.url as string), `the server at ${values.url}`)
  let opened: Awaited<ReturnType<typeof openProgram>>
  try {
    opened = await openProgram(databaseTarget(values.database as string | undefined).target)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    const about = await serverAbout(error.dataDir)
    if (!about) throw new CliError(lockedMessage(error))
    return remote(about.url, `the server (process ${about.pid}) holding ${error.dataDir}, at ${about.url}`)
  }
  const { program, storage, description } = opened
  try {
    // As serve's handler has them, less what needs its config: the portal and the payout providers.
    const providerEvents = { replay: (id: number, project?: string) => (project === undefined ? program : program.project(project)).providerEvents.replay(id) }
    const server = await createMcpServer(program, { apiKey, handler: { auditLog: storage, state: storage.keyedState, providerEvents } })
    return { server, where: description, close: () => program.close() }
  } catch (error) {
    await program.close()
    throw error
  }
}

/** Resolves when the client ends the session (closes stdin) or the process is asked to stop. */
const sessionEnd = () =>
  new Promise<void>((resolve) => {
    process.stdin.once('end', resolve)
    process.stdin.once('close', resolve)
    process.once('SIGTERM', resolve)
    process.once('SIGINT', resolve)
  })

export const mcpCommand: Command = {
  name: 'mcp',
  usage: 'affiliate-kit mcp [--database <db> | --url <api-url>] [--api-key <key>]',
  help: `Serves an MCP session on stdin and stdout (docs/mcp.md): one tool per REST operation the key's
scopes allow (read-only tools for a key without write scopes), and the resources commissions.md and
the program's settings. Runs until the client closes stdin.

${DATABASE_HELP}
                     embedded PGlite that a running server holds is used through that server
  --url <api-url>    a running server's API instead, e.g. https://affiliates.example.com/api/v1
  --api-key <key>    a key of the program (rgk_...)            env AFFILIATE_KIT_API_KEY

The key must already exist ("affiliate-kit keys create"): unlike serve, mcp never creates one.`,
  options: { database: { type: 'string' }, url: { type: 'string' }, 'api-key': { type: 'string' } },
  async run(values) {
    if (values.url !== undefined && values.database !== undefined) throw usageError('--url and --database exclude each other: the tools call one program')
    const apiKey = apiKeyOf(values)
    const ended = sessionEnd()
    const { stdioTransport } = await import('../../mcp/sdk.js')
    const { server, where, close } = await start(values, apiKey).catch((error: unknown) => {
      throw error instanceof McpSetupError ? new CliError(error.message) : error
    })
    try {
      await server.connect(await stdioTransport())
      note(`${server.tools.length} tools for key ${apiKey.slice(0, 8)}… on ${where}`)
      await ended
    } finally {
      await server.close().catch(() => {})
      await close()
    }
    return 0
  },
}
