// `affiliate-kit mcp` as a process, in a session with the MCP SDK's own client over stdio: on a
// PGlite directory (a write key creates an affiliate and a conversion, a read key lists read-only
// tools and is refused a write), through the server that holds the directory, through --url, and
// on PostgreSQL; what it cannot start with is one line and exit code 1 (2 for a usage error).
import { join } from 'node:path'
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { OPERATION_LIST } from '../../src/http/routes/operations.js'
import { createAffiliateProgram, type StoragePort } from '../../src/index.js'
import type { Scope } from '../../src/core/model/types.js'
import { api, MAIN, run, runToEnd } from '../support/cli/process.js'
import { freshDatabase } from '../support/cli/postgres-database.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { DATABASE_URL, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const tempDir = tempDirs('affiliate-kit-cli-mcp')
const READ_SCOPES: Scope[] = ['affiliates:read', 'conversions:read', 'referrals:read']

/** Runs fn on the program of the storage, closed afterwards (PGlite's lock released). */
async function onStorage<T>(storage: StoragePort, fn: (program: Awaited<ReturnType<typeof createAffiliateProgram>>) => Promise<T>): Promise<T> {
  const program = await createAffiliateProgram({ storage })
  try {
    return await fn(program)
  } finally {
    await program.close()
  }
}

/** A write key (scope *) and a read key of the program. */
const keysOf = (storage: StoragePort) =>
  onStorage(storage, async (program) => ({ write: (await program.keys.create()).key, read: (await program.keys.create({ scopes: READ_SCOPES })).key }))

/** An MCP session with `affiliate-kit mcp args`, as Claude Desktop and other clients start one. */
async function mcp(args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, 'mcp', ...args], env, cwd: tempDir(), stderr: 'pipe' })
  let stderr = ''
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new McpClient({ name: 'cli-mcp-test', version: '1' })
  await client.connect(transport)
  return { client, stderr: () => stderr }
}

const textOf = (result: Awaited<ReturnType<McpClient['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text
const ANN = { email: 'ann@example.com', referral_code: 'ANN' }
const PURCHASE = { type: 'purchase', referral_code: 'ANN', email: 'bob@example.com', base_value: 49, reference: 'ch_1' }

/** The write session's checks: every operation a tool, an affiliate and a conversion created. */
async function writeSession(client: McpClient) {
  const { tools } = await client.listTools()
  expect(tools.map((tool) => tool.name)).toEqual(OPERATION_LIST.map((operation) => operation.id))
  const affiliate = await client.callTool({ name: 'postAffiliates', arguments: { body: ANN } })
  expect(JSON.parse(textOf(affiliate))).toMatchObject({ success: true, data: { user_email: 'ann@example.com' } })
  const conversion = await client.callTool({ name: 'postConversions', arguments: { body: PURCHASE } })
  expect(JSON.parse(textOf(conversion))).toMatchObject({ data: { value: 14.7, base_value: 49 }, attribution: { matched_by: 'referral_code' } })
}

/** The read session's checks: read-only tools of its scopes only, a write refused by the API. */
async function readSession(client: McpClient) {
  const { tools } = await client.listTools()
  const scopes = new Map(OPERATION_LIST.map((operation) => [operation.id as string, operation.scope as Scope]))
  expect(tools.map((tool) => tool.name)).toEqual(OPERATION_LIST.filter((operation) => READ_SCOPES.includes(operation.scope)).map((operation) => operation.id))
  expect(tools.every((tool) => tool.annotations?.readOnlyHint === true && READ_SCOPES.includes(scopes.get(tool.name)!))).toBe(true)
  const refused = await client.callTool({ name: 'postAffiliates', arguments: { body: { email: 'eve@example.com' } } })
  expect({ isError: refused.isError, text: textOf(refused) }).toEqual({ isError: true, text: '403: this API key lacks the affiliates:write scope' })
  const conversions = await client.callTool({ name: 'getConversions', arguments: {} })
  return JSON.parse(textOf(conversions)) as { data: Array<{ reference: string }> }
}

describe('affiliate-kit mcp on a PGlite directory', () => {
  it('with a write key creates an affiliate and a conversion; with a read key lists read-only tools and is refused a write; the directory keeps both', async () => {
    const dataDir = migratedDataDir(join(tempDir(), 'data'))
    const keys = await keysOf(pgliteStorage({ dataDir }))
    const database = ['--database', `pglite:${dataDir}`]

    const writer = await mcp(database, { AFFILIATE_KIT_API_KEY: keys.write })
    await writeSession(writer.client)
    expect(writer.stderr()).toContain(`affiliate-kit mcp: ${OPERATION_LIST.length} tools for key ${keys.write.slice(0, 8)}… on embedded PGlite in ${dataDir}`)
    const settings = await writer.client.readResource({ uri: 'affiliate-kit://settings' })
    expect(JSON.parse((settings.contents[0] as { text: string }).text)).toMatchObject({ currency: 'USD' })
    await writer.client.close()

    const reader = await mcp([...database, '--api-key', keys.read], {})
    expect((await readSession(reader.client)).data.map((conversion) => conversion.reference)).toEqual(['ch_1'])
    await reader.client.close()

    await onStorage(pgliteStorage({ dataDir }), async (program) => {
      expect((await program.affiliates.get('ann@example.com')).referralCode).toBe('ANN')
      expect((await program.conversions.list({})).items.map((conversion) => conversion.value.toString())).toEqual(['14.70'])
      await expect(program.affiliates.get('eve@example.com')).rejects.toMatchObject({ code: 'not_found' })
    })
  }, 120_000)

  it('goes through the server that holds the directory, and through --url', async () => {
    const dataDir = migratedDataDir(join(tempDir(), 'data'))
    const keys = await keysOf(pgliteStorage({ dataDir }))
    const server = run(['serve', '--port', '0', '--database', `pglite:${dataDir}`], { cwd: tempDir() })
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const writer = await mcp(['--database', `pglite:${dataDir}`], { AFFILIATE_KIT_API_KEY: keys.write })
      await writeSession(writer.client)
      expect(writer.stderr()).toContain(`on the server (process ${server.child.pid}) holding ${dataDir}, at ${url}`)
      await writer.client.close()
      expect((await api(url!, keys.write, 'GET', '/affiliates/ann%40example.com')).body).toMatchObject({ data: { referral_code: 'ANN', purchases: 1 } })

      const reader = await mcp(['--url', url!], { AFFILIATE_KIT_API_KEY: keys.read })
      expect((await readSession(reader.client)).data.map((conversion) => conversion.reference)).toEqual(['ch_1'])
      expect((await reader.client.listResources()).resources.map((resource) => resource.uri)).toEqual(['affiliate-kit://docs/commissions.md'])
      await reader.client.close()
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it('says in one line, exit code 1 (2 for a usage error), what it cannot start with', async () => {
    const dataDir = migratedDataDir(join(tempDir(), 'data'))
    const keys = await keysOf(pgliteStorage({ dataDir }))
    const database = ['mcp', '--database', `pglite:${dataDir}`]
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [database, {}, /^affiliate-kit: affiliate-kit mcp needs an API key of the program: set AFFILIATE_KIT_API_KEY \(or --api-key\)/],
      [database, { AFFILIATE_KIT_API_KEY: 'rgk_NotAKeyOfThisProgram0000' }, /^affiliate-kit: the API key is not a key of this program/],
      [[...database, '--url', 'http://127.0.0.1:1/api/v1'], { AFFILIATE_KIT_API_KEY: keys.read }, /^affiliate-kit: --url and --database exclude each other/],
      [['mcp', '--url', 'ftp://example.com'], { AFFILIATE_KIT_API_KEY: keys.read }, /^affiliate-kit: --url must be the http\(s\) URL of a server's API/],
      [['mcp', '--url', 'http://127.0.0.1:1/api/v1'], { AFFILIATE_KIT_API_KEY: keys.read }, /^affiliate-kit: cannot reach the API: /],
    ]
    for (const [args, env, expected] of cases) {
      const { code, output } = await runToEnd(args, { cwd: tempDir(), env })
      expect({ args, code, lines: output.split('\n').length, output }).toEqual({ args, code: args.includes('--database') && args.includes('--url') ? 2 : 1, lines: 1, output: expect.stringMatching(expected) })
    }
  }, 120_000)
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`affiliate-kit mcp on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  it('a write key creates an affiliate and a conversion, a read key is refused a write', async () => {
    const db = await freshDatabase()
    try {
      const keys = await keysOf(postgresStorage({ connectionString: db.url }))
      const writer = await mcp([], { DATABASE_URL: db.url, AFFILIATE_KIT_API_KEY: keys.write })
      await writeSession(writer.client)
      await writer.client.close()
      const reader = await mcp([], { DATABASE_URL: db.url, AFFILIATE_KIT_API_KEY: keys.read })
      expect((await readSession(reader.client)).data.map((conversion) => conversion.reference)).toEqual(['ch_1'])
      await reader.client.close()
    } finally {
      await db.drop()
    }
  }, 120_000)
})
