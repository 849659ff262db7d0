// createMcpServer in this process, through the SDK's own client over its in-memory transport: the
// tools are the operation table's (a table with one operation more or less lists one tool more or
// less), their schemas the OpenAPI document's, their annotations the operations' kinds; a key's
// scopes decide the tools, through a program and through a client alike; every bad input is an
// error result, never a crash; the resources are docs/commissions.md and the stored settings.
import { readFileSync } from 'node:fs'
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createClient } from '../../src/client/index.js'
import { createHandler, OPERATIONS, openApiDocument, type Operation } from '../../src/http/index.js'
import { OPERATION_LIST } from '../../src/http/routes/operations.js'
import { createAffiliateProgram, type AffiliateProgram } from '../../src/index.js'
import { createMcpServer, McpSetupError, type AffiliateMcpServer, type McpServerOptions } from '../../src/mcp/index.js'
import type { Scope } from '../../src/core/model/types.js'

const sessions: Array<{ client: McpClient; server: AffiliateMcpServer }> = []
afterAll(async () => {
  for (const { client, server } of sessions) {
    await client.close()
    await server.close()
  }
})

/** An MCP session with the server, as an assistant's client holds it. */
async function session(server: AffiliateMcpServer): Promise<McpClient> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new McpClient({ name: 'test', version: '1' })
  await client.connect(clientSide)
  sessions.push({ client, server })
  return client
}

let program: AffiliateProgram
let writeKey: string
let readKey: string
beforeAll(async () => {
  program = await createAffiliateProgram({ storage: memoryStorage() })
  writeKey = (await program.keys.create()).key
  readKey = (await program.keys.create({ scopes: ['affiliates:read', 'conversions:read'] })).key
})

const onProgram = async (apiKey: string, options: McpServerOptions = {}) => session(await createMcpServer(program, { apiKey, ...options }))
const textOf = (result: Awaited<ReturnType<McpClient['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text

/** Every operationId of the OpenAPI document, in its order. */
function documentOperationIds(): string[] {
  const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>
  return Object.values(paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId)).filter((id) => id !== 'getOpenApi')
}

describe('the tools', () => {
  it('are one per operation of the table, named by the operationIds of the OpenAPI document', async () => {
    const { tools } = await (await onProgram(writeKey)).listTools()
    expect(tools).toHaveLength(OPERATION_LIST.length)
    expect(tools.map((tool) => tool.name)).toEqual(OPERATION_LIST.map((operation) => operation.id))
    expect(new Set(tools.map((tool) => tool.name))).toEqual(new Set(documentOperationIds()))
  })

  it("name the server affiliate-kit, with the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect((await onProgram(readKey)).getServerVersion()).toMatchObject({ name: 'affiliate-kit', version })
  })

  it('follow the table: one operation less or more is one tool less or more', async () => {
    const extra: Operation = { ...OPERATIONS.find((operation) => operation.id === 'getAffiliates')!, id: 'getAffiliatesPending', path: '/affiliates/pending' }
    const fewer = (await (await onProgram(writeKey, { operations: OPERATIONS.slice(1) })).listTools()).tools.map((tool) => tool.name)
    const more = (await (await onProgram(writeKey, { operations: [...OPERATIONS, extra] })).listTools()).tools.map((tool) => tool.name)
    expect(fewer).toEqual(OPERATION_LIST.slice(1).map((operation) => operation.id))
    expect(more).toEqual([...OPERATION_LIST.map((operation) => operation.id), 'getAffiliatesPending'])
    await expect(createMcpServer(program, { apiKey: writeKey, operations: [...OPERATIONS, OPERATIONS[0]!] })).rejects.toThrow(/two operations are named getAffiliates/)
  })

  it("take the OpenAPI document's schemas: path parameters, query parameters and the body", async () => {
    const { tools } = await (await onProgram(writeKey)).listTools()
    const paths = openApiDocument().paths as Record<string, Record<string, any>>
    for (const tool of tools) {
      const [path, method] = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).filter(([, operation]) => operation.operationId === tool.name).map(([method]) => [path, method]))[0]!
      const operation = paths[path!]![method!]
      const properties = tool.inputSchema.properties as Record<string, any>
      for (const parameter of operation.parameters) {
        const { $schema: _, ...schema } = parameter.schema
        if (parameter.in === 'path') expect(properties[parameter.name], `${tool.name} ${parameter.name}`).toMatchObject(schema)
        else expect(properties[parameter.name], `${tool.name} ${parameter.name}`).toEqual(schema)
        if (parameter.in === 'path') expect(tool.inputSchema.required).toContain(parameter.name)
      }
      const body = operation.requestBody?.content['application/json'].schema
      const { $schema: _, ...bodySchema } = body ?? {}
      expect(properties.body, tool.name).toEqual(body ? { ...bodySchema, description: 'the JSON body of the request' } : undefined)
      expect(Object.keys(properties)).toHaveLength(operation.parameters.length + (body ? 1 : 0))
    }
  })

  it('mark reads read-only, DELETE and the operations that erase or pay destructive, the others neither', async () => {
    const tools = new Map((await (await onProgram(writeKey)).listTools()).tools.map((tool) => [tool.name, tool.annotations]))
    expect(tools.get('getAffiliates')).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true })
    expect(tools.get('postConversionsPreview')).toMatchObject({ readOnlyHint: true, destructiveHint: false })
    expect(tools.get('postAffiliates')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false })
    expect(tools.get('putAffiliatesEmail')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })
    const destructive = [...tools].filter(([, annotations]) => annotations!.destructiveHint).map(([name]) => name)
    expect(tools.get('patchLinksId')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })
    expect(destructive.sort()).toEqual(['deleteAffiliatesEmail', 'deleteConversionsId', 'deleteCouponsId', 'deleteLinksId', 'postAffiliatesEmailErase', 'postPayoutsRuns', 'postReferralsEmailErase'])
  })

  it('are those the key may call: a key without write scopes gets read-only tools, and a write is the API refusing it', async () => {
    const client = await onProgram(readKey)
    const { tools } = await client.listTools()
    const scopes = new Map(OPERATION_LIST.map((operation) => [operation.id as string, operation.scope as Scope]))
    expect(tools.length).toBeGreaterThan(5)
    expect(new Set(tools.map((tool) => scopes.get(tool.name)))).toEqual(new Set(['affiliates:read', 'conversions:read']))
    expect(tools.every((tool) => tool.annotations?.readOnlyHint)).toBe(true)
    const refused = await client.callTool({ name: 'postAffiliates', arguments: { body: { email: 'eve@example.com' } } })
    expect(refused).toMatchObject({ isError: true })
    expect(textOf(refused)).toBe('403: this API key lacks the affiliates:write scope')
    await expect(program.affiliates.get('eve@example.com')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('call the program with the write key: an affiliate, a conversion on it, and the answers as the API gives them', async () => {
    const client = await onProgram(writeKey)
    const affiliate = await client.callTool({ name: 'postAffiliates', arguments: { body: { email: 'ann@example.com', referral_code: 'ANN' } } })
    expect(JSON.parse(textOf(affiliate))).toMatchObject({ success: true, data: { user_email: 'ann@example.com', referral_code: 'ANN' } })
    const conversion = await client.callTool({ name: 'postConversions', arguments: { body: { type: 'purchase', referral_code: 'ANN', email: 'bob@example.com', base_value: 49, reference: 'ch_1' } } })
    expect(JSON.parse(textOf(conversion))).toMatchObject({ data: { value: 14.7, base_value: 49 } })
    const stored = await program.conversions.list({})
    expect(stored.items.map((item) => [item.reference, item.value.toString()])).toEqual([['ch_1', '14.70']])
    const read = await client.callTool({ name: 'getAffiliatesEmail', arguments: { email: 'ann@example.com' } })
    expect(JSON.parse(textOf(read))).toMatchObject({ data: { total_earnings: '14.70' } })
    const page = await client.callTool({ name: 'getConversions', arguments: { limit: 1 } })
    expect(JSON.parse(textOf(page))).toMatchObject({ pagination: { limit: 1 } })
    const deleted = await client.callTool({ name: 'deleteConversionsId', arguments: { id: JSON.parse(textOf(conversion)).data.id } })
    expect(deleted).toMatchObject({ content: [{ type: 'text', text: 'done (deleted)' }] })
  })

  it('answer every bad input with an error result naming it, and go on answering', async () => {
    const client = await onProgram(writeKey)
    const cases: Array<[string, unknown, RegExp]> = [
      ['getConversionsId', {}, /^invalid arguments: id: required$/],
      ['getConversionsId', { id: 'x' }, /^400: invalid conversion id$/],
      ['getConversionsId', { id: { nested: true } }, /^invalid arguments: id: must be a string$/],
      ['getConversionsId', { id: '1', extra: 1 }, /^invalid arguments: unknown argument "extra"; getConversionsId takes id$/],
      ['getAffiliates', { limit: 'many' }, /^400: .*limit/],
      ['postAffiliates', { body: 'ann@example.com' }, /^400: /],
      ['postAffiliates', { body: { email: 'not an email' } }, /^400: .*email/],
      ['postConversions', { body: { type: 'purchase', referral_code: 'NOBODY', base_value: 1 } }, /^404: /],
      ['postConversions', { body: { type: 'purchase', referral_code: 'ANN', base_value: 1e400 } }, /^400: /],
      ['noSuchTool', {}, /^unknown tool "noSuchTool"/],
    ]
    for (const [name, args, expected] of cases) {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> })
      expect({ name, args, error: result.isError, text: textOf(result) }).toEqual({ name, args, error: true, text: expect.stringMatching(expected) })
    }
    expect((await client.callTool({ name: 'getAffiliates', arguments: {} })).isError).toBeFalsy()
  })
})

describe('the resources', () => {
  it("are docs/commissions.md and the program's settings as stored", async () => {
    const client = await onProgram(readKey)
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual(['affiliate-kit://docs/commissions.md', 'affiliate-kit://settings'])
    const docs = await client.readResource({ uri: 'affiliate-kit://docs/commissions.md' })
    expect(docs.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: readFileSync(new URL('../../docs/commissions.md', import.meta.url), 'utf8') })
    const settings = await client.readResource({ uri: 'affiliate-kit://settings' })
    expect(JSON.parse((settings.contents[0] as { text: string }).text)).toEqual(JSON.parse(JSON.stringify(await program.settings())))
    await expect(client.readResource({ uri: 'affiliate-kit://nothing' })).rejects.toThrow(/unknown resource affiliate-kit:\/\/nothing/)
  })
})

describe('through a client', () => {
  /** A typed client whose requests reach the program's REST handler, as a server's would. */
  const clientWith = (apiKey: string) => {
    const handler = createHandler(program)
    return createClient({ baseURL: 'http://server.invalid/api/v1', apiKey, fetch: (input, init) => handler.fetch(new Request(input, init)) })
  }

  it('learns the scopes of its key from the server: the same tools as on the program, and no resource of settings', async () => {
    for (const key of [readKey, writeKey]) {
      const remote = await createMcpServer(clientWith(key))
      const local = await createMcpServer(program, { apiKey: key })
      expect(remote.tools.map((tool) => tool.name)).toEqual(local.tools.map((tool) => tool.name))
      expect(remote.resources.map((resource) => resource.uri)).toEqual(['affiliate-kit://docs/commissions.md'])
    }
    const partial = (await program.keys.create({ scopes: ['webhooks:write', 'payouts:read'] })).key
    expect(new Set((await createMcpServer(clientWith(partial))).tools.map((tool) => tool.operation.scope))).toEqual(new Set(['webhooks:write', 'payouts:read']))
  })

  it('the probes of the scopes write nothing', async () => {
    const before = { affiliates: (await program.affiliates.list({})).total, conversions: (await program.conversions.list({})).total }
    await createMcpServer(clientWith(writeKey))
    expect({ affiliates: (await program.affiliates.list({})).total, conversions: (await program.conversions.list({})).total }).toEqual(before)
  })
})

describe('refusals at start', () => {
  it('a program without a key, with a key it does not know, with a publishable key; a server refusing the key or granting it nothing, a server out of reach', async () => {
    const publishable = (await program.keys.createPublishable()).key
    await expect(createMcpServer(program)).rejects.toThrow(McpSetupError)
    await expect(createMcpServer(program, { apiKey: 'rgk_unknown000000000000000000' })).rejects.toThrow(/not a key of this program/)
    await expect(createMcpServer(program, { apiKey: publishable })).rejects.toThrow(/publishable key/)
    const handler = createHandler(program)
    const refused = createClient({ baseURL: 'http://server.invalid/api/v1', apiKey: 'rgk_wrong', fetch: (input, init) => handler.fetch(new Request(input, init)) })
    await expect(createMcpServer(refused)).rejects.toThrow(/refused the API key \(401\)/)
    const browserKey = createClient({ baseURL: 'http://server.invalid/api/v1', apiKey: publishable, fetch: (input, init) => handler.fetch(new Request(input, init)) })
    await expect(createMcpServer(browserKey)).rejects.toThrow(/lets this key call no operation/)
    const unreachable = createClient({ baseURL: 'http://127.0.0.1:1/api/v1', apiKey: writeKey })
    await expect(createMcpServer(unreachable)).rejects.toThrow(/cannot reach the API/)
  })
})
