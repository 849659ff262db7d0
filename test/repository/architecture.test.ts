// The house rule of the README's "Contributing: where things live": every room of src/ sits on a
// floor, and a file imports only its own room or rooms on lower floors. So no room imports one
// above it, two rooms on one floor never import each other, and no circle between rooms can form.
// The core is rooms too (model, ports, rules, the use cases, the program), and no two files import
// each other, through any number of others, inside a room or not (type-only imports count).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/** The floors, from the ground up; the README's map lists the same. */
const FLOORS: readonly (readonly string[])[] = [
  ['core/model', 'ops', 'browser', 'embed'],
  ['core/ports'],
  ['core/rules'],
  ['core/affiliates'],
  ['core/conversions', 'core/payouts', 'core/project'],
  ['core/provider-events'],
  ['core'],
  ['adapters'],
  ['adapters/sql', 'adapters/memory'],
  ['adapters/pglite', 'adapters/postgres'],
  ['server'],
  ['webhooks', 'email'],
  ['web'],
  ['http', 'providers', 'payouts', 'tracking', 'portal', 'admin', 'importers'],
  ['client', 'react', 'better-auth'],
  ['mcp'],
  ['entry points'],
  ['cli'],
]

const SRC = resolve(__dirname, '../../src')
const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)))

/** The room of a file under src/: its top folder, one level deeper under adapters/ and core/. */
function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/')
  if (parts.length === 1) return 'entry points'
  if ((parts[0] === 'adapters' || parts[0] === 'core') && parts.length > 2) return `${parts[0]}/${parts[1]}`
  return parts[0]!
}

/** Why `from` may not import `to`, or null when it may. */
function refusal(from: string, to: string): string | null {
  if (from === to) return null
  const [a, b] = [floorOf.get(from), floorOf.get(to)]
  if (a === undefined || b === undefined) return `${a === undefined ? from : to} is on no floor of the map`
  if (b > a) return `${from} imports ${to}, a room above it`
  if (b === a) return `${from} imports ${to}, a room on its own floor`
  return null
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Every relative import of src/ (static, type-only, re-exports and dynamic) as [file, imported file]. */
function imports(): Array<[string, string]> {
  return sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
      (match) => [file, resolve(dirname(file), match[1]!)] as [string, string],
    ),
  )
}

/** The file an import names: its .ts for a .js, a folder's index.ts; the path itself when neither exists. */
function fileOf(target: string, files: ReadonlySet<string>): string {
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts'), target]
  return candidates.find((file) => files.has(file)) ?? target
}

/** The circles of a graph (its strongly connected groups of two or more), each sorted, by Tarjan's algorithm. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1) found.push(group.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the house rule', () => {
  it('refuses an adapter importing http, admin importing portal, and both arrows of a circle', () => {
    expect(refusal('adapters/sql', 'http')).toMatch(/above/)
    expect(refusal('admin', 'portal')).toMatch(/own floor/)
    expect([refusal('web', 'webhooks'), refusal('webhooks', 'web')].filter(Boolean)).toHaveLength(1)
    expect(refusal('cli', 'core')).toBeNull()
  })

  it('puts the rooms of the core on floors: the model lowest, then ports, rules, the use cases, the program', () => {
    expect(refusal('core/model', 'core/ports')).toMatch(/above/)
    expect(refusal('core/ports', 'core/rules')).toMatch(/above/)
    expect(refusal('core/rules', 'core/affiliates')).toMatch(/above/)
    expect(refusal('core/payouts', 'core/conversions')).toMatch(/own floor/)
    expect(refusal('core/provider-events', 'core')).toMatch(/above/)
    expect(refusal('core', 'core/model')).toBeNull()
    expect(refusal('adapters/sql', 'core')).toBeNull()
    expect(roomOf(join(SRC, 'core/rules/fraud/check.ts'))).toBe('core/rules')
    expect(roomOf(join(SRC, 'core/program.ts'))).toBe('core')
  })

  it('finds a circle of files however long, and only the files on it', () => {
    const graph = new Map<string, string[]>([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])
    expect(circles(graph)).toEqual([['a', 'b', 'c']])
    expect(circles(new Map<string, string[]>([['a', ['b']], ['b', []]]))).toEqual([])
  })

  it('has no circle between files anywhere under src/, type-only imports included', () => {
    const files = new Set(sourceFiles(SRC))
    const graph = new Map<string, string[]>([...files].map((file) => [file, []]))
    for (const [file, target] of imports()) graph.get(file)!.push(fileOf(target, files))
    expect(circles(graph).map((group) => group.map((file) => relative(SRC, file)).join(', '))).toEqual([])
  })

  it('holds for every import under src/', () => {
    const broken = imports().flatMap(([file, target]) => {
      const why = refusal(roomOf(file), roomOf(target))
      return why ? [`${relative(SRC, file)} -> ${relative(SRC, target)}: ${why}`] : []
    })
    expect(broken).toEqual([])
  })

  it('puts every room of src/ on a floor', () => {
    const rooms = new Set(sourceFiles(SRC).map(roomOf))
    expect([...rooms].filter((room) => !floorOf.has(room))).toEqual([])
  })
})

// The storage port's size (issue 44: at most half of the 131 methods it had). Counted as when the
// 131 were: every method signature of an interface in the port's files, the domain store
// (storage.ts) and the stores it carries beside it (tracking, mail queue, audit log, keyed state,
// sessions, retention). Not counted: the generic table contract (entity-table.ts), written once
// for every entity, and outbox-store.ts, the webhook dispatcher's queue, which the 131 left out.
const STORAGE_PORT_FILES = ['storage.ts', 'tracking-storage.ts', 'mail-queue.ts', 'audit-log.ts', 'keyed-state.ts', 'session-store.ts', 'retention.ts']
const MAX_STORAGE_PORT_METHODS = 65

/** The method signatures of the interfaces a port file declares, as `Interface.method`. */
function portMethods(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(SRC, 'core/ports', file), 'utf8'), ts.ScriptTarget.Latest)
  return source.statements.filter(ts.isInterfaceDeclaration).flatMap((declaration) =>
    declaration.members.filter(ts.isMethodSignature).map((method) => `${declaration.name.text}.${method.name.getText(source)}`),
  )
}

describe('the storage port', () => {
  it(`names at most ${MAX_STORAGE_PORT_METHODS} methods of its own: plain reads and writes go through the entities' tables`, () => {
    const methods = STORAGE_PORT_FILES.flatMap(portMethods)
    expect(methods).toContain('AffiliateRepository.getByCode')
    expect(methods.length, methods.join('\n')).toBeLessThanOrEqual(MAX_STORAGE_PORT_METHODS)
  })
})

/** The rooms of test/ beside those of src/: what needs Chromium, the CLI's commands and whole servers as processes, the repository's own files. */
const TEST_ONLY_ROOMS = ['browser', 'cli', 'process', 'repository']
const TEST = resolve(__dirname, '..')

describe('test/ in rooms', () => {
  it('has every test file in a room: a room of src/ (or a folder of one) or a test-only room, none directly under test/', () => {
    const testFiles = sourceFiles(TEST).filter((file) => file.endsWith('.test.ts'))
    expect(testFiles.length).toBeGreaterThan(0)
    expect(readdirSync(TEST).filter((name) => name.endsWith('.ts'))).toEqual([])
    const homeless = testFiles.filter((file) => {
      const room = relative(TEST, dirname(file))
      if (TEST_ONLY_ROOMS.includes(room.split('/')[0]!)) return false
      try {
        return !readdirSync(join(SRC, room)).length
      } catch {
        return true
      }
    })
    expect(homeless.map((file) => relative(TEST, file))).toEqual([])
  })

  it('keeps the shared helpers in test/support/ and the conformance cases in test/conformance/', () => {
    const helpers = sourceFiles(TEST).filter((file) => !file.endsWith('.test.ts'))
    expect(helpers.map((file) => relative(TEST, file)).filter((file) => !/^(support|conformance)\//.test(file))).toEqual([])
  })
})
