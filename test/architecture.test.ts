// The house rule of the README's "Contributing: where things live": every room of src/ sits on a
// floor, and a file imports only its own room or rooms on lower floors. So no room imports one
// above it, two rooms on one floor never import each other, and no circle between rooms can form.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/** The floors, from the ground up; the README's map lists the same. */
const FLOORS: readonly (readonly string[])[] = [
  ['core', 'ops', 'browser'],
  ['adapters'],
  ['adapters/sql', 'adapters/memory'],
  ['adapters/pglite', 'adapters/postgres'],
  ['server'],
  ['webhooks', 'email'],
  ['web'],
  ['http', 'providers', 'payouts', 'tracking', 'portal', 'admin', 'importers'],
  ['client'],
  ['entry points'],
  ['cli'],
]

const SRC = resolve(__dirname, '../src')
const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)))

/** The room of a file under src/: its top folder, one level deeper under adapters/. */
function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/')
  if (parts.length === 1) return 'entry points'
  if (parts[0] === 'adapters' && parts.length > 2) return `adapters/${parts[1]}`
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

describe('the house rule', () => {
  it('refuses an adapter importing http, admin importing portal, and both arrows of a circle', () => {
    expect(refusal('adapters/sql', 'http')).toMatch(/above/)
    expect(refusal('admin', 'portal')).toMatch(/own floor/)
    expect([refusal('web', 'webhooks'), refusal('webhooks', 'web')].filter(Boolean)).toHaveLength(1)
    expect(refusal('cli', 'core')).toBeNull()
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
