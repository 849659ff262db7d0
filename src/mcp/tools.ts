// The MCP tools of the REST operations: one per operation of the table, named by its OpenAPI
// operationId, described by its summary, its input the path parameters, the query parameters and
// (under `body`) the JSON body, each schema the one the OpenAPI document publishes.
import { hasScope } from '../core/project/keys.js'
import type { Scope } from '../core/model/types.js'
import { inputJsonSchema, operationId, pathParamNames, type Operation } from '../http/openapi.js'

type JsonObject = Record<string, unknown>

/** What MCP clients read of a tool's behaviour (the spec's ToolAnnotations). */
export interface McpToolAnnotations {
  title: string
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
}

/** A tool as tools/list shows it, and the operation it calls. */
export interface McpTool {
  name: string
  description: string
  inputSchema: { type: 'object'; properties: JsonObject; required: string[]; additionalProperties: false }
  annotations: McpToolAnnotations
  operation: Operation
}

/** A route schema's JSON Schema, without the draft marker only the document's root carries. */
function jsonSchema(schema: NonNullable<Operation['body']>): JsonObject {
  const { $schema: _, ...rest } = inputJsonSchema(schema) as JsonObject
  return rest
}

function inputSchema(operation: Operation): McpTool['inputSchema'] {
  const properties: JsonObject = {}
  const required: string[] = []
  const add = (name: string, schema: unknown) => {
    // The table's names are its own: a clash would make one input hide another.
    if (name in properties) throw new Error(`${operation.method} ${operation.path}: "${name}" is both a path or query parameter and another input`)
    properties[name] = schema
  }
  for (const name of pathParamNames(operation)) {
    add(name, { type: 'string', description: name === 'email' ? 'the email address (or what the path segment accepts)' : `the ${name} path parameter` })
    required.push(name)
  }
  const query = operation.query ? jsonSchema(operation.query) : null
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as JsonObject)) add(name, schema)
  if (operation.body) {
    const body = jsonSchema(operation.body)
    add('body', { ...body, description: 'the JSON body of the request' })
    if (Array.isArray(body.required) && body.required.length > 0) required.push('body')
  }
  return { type: 'object', properties, required, additionalProperties: false }
}

function annotations(operation: Operation): McpToolAnnotations {
  const readOnly = operation.method === 'GET' || operation.writesNothing === true
  return {
    title: operation.summary,
    readOnlyHint: readOnly,
    // The spec's default is true: a write that destroys nothing says so.
    destructiveHint: !readOnly && (operation.method === 'DELETE' || operation.destructive === true),
    idempotentHint: readOnly || operation.method === 'PUT' || operation.method === 'PATCH' || operation.method === 'DELETE',
  }
}

function description(operation: Operation): string {
  const warning = operation.destructive ? ' It cannot be undone.' : operation.method === 'DELETE' ? ' It deletes for good.' : ''
  return `${operation.summary}.${warning} (${operation.method} /api/v1${operation.path}; scope ${operation.scope})`
}

/** A tool per operation, in the table's order. */
export function mcpTools(operations: readonly Operation[]): McpTool[] {
  const names = operations.map(operationId)
  const twice = names.find((name, index) => names.indexOf(name) !== index)
  if (twice !== undefined) throw new Error(`two operations are named ${twice}: a tool's name is its operation's id`)
  return operations.map((operation) => ({
    name: operationId(operation),
    description: description(operation),
    inputSchema: inputSchema(operation),
    annotations: annotations(operation),
    operation,
  }))
}

/** The tools a key with these scopes may call: read-only ones for a key without write scopes. */
export const toolsFor = (tools: readonly McpTool[], scopes: readonly Scope[]): McpTool[] => tools.filter((tool) => hasScope(scopes, tool.operation.scope))
