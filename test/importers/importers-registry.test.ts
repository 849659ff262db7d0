// One registry per extension: the import tools are src/importers/registry.ts, and every other
// list (the CLI's commands and usage, csvSource's layouts, the tools named by docs/migrating.md)
// derives from it; no other file of src/ or the docs lists them. A new tool is its folder and its
// line in the registry (and its section in docs/migrating.md, which this test asks for).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCommands } from '../../src/cli/commands/import.js'
import { CSV_LAYOUTS } from '../../src/importers/csv/layouts.js'
import { IMPORTER_NAMES, IMPORTERS } from '../../src/importers/registry.js'
import { documents, listsInFiles, quotingFiles, read, ROOT, sourceFiles } from '../support/registries/lists.js'

const REGISTRY = 'src/importers/registry.ts'
const labels = IMPORTER_NAMES.map((name) => IMPORTERS[name].label)

/** The one list of the docs: the tools as docs/migrating.md's first paragraph names them, each linked to its section. */
function docsList(): string {
  const links = IMPORTER_NAMES.map((name) => `[${IMPORTERS[name].label}](#${IMPORTERS[name].label.toLowerCase()})`)
  return `${links.slice(0, -1).join(', ')} and ${links.at(-1)}`
}

describe('the importers registry', () => {
  it('gives every tool its folder, and the source there is named as the registry names it', () => {
    for (const name of IMPORTER_NAMES) {
      expect(existsSync(join(ROOT, 'src/importers', name, 'index.ts')), name).toBe(true)
      const source = IMPORTERS[name].apiSource({ apiKey: 'key', apiUrl: IMPORTERS[name].defaultApiUrl, programId: 'prg_1', onRetry: () => {} })
      expect(source.name).toBe(name)
    }
  })

  it('is the CLI: one `affiliate-kit import <tool>` per tool, its usage and help from the registry', () => {
    expect(importCommands.map((command) => command.name)).toEqual(IMPORTER_NAMES.map((name) => `import ${name}`))
    for (const [index, name] of IMPORTER_NAMES.entries()) {
      const { usage, help, options } = importCommands[index]!
      const tool = IMPORTERS[name]
      expect(usage).toMatch(new RegExp(`^affiliate-kit import ${name} \\(--api-key <key>`))
      expect(help).toContain(`from ${tool.label}\n`)
      expect(help).toContain(`env ${tool.env}_API_KEY`)
      expect(help).toContain(`default ${tool.defaultApiUrl}`)
      expect(help).toContain(tool.csv.files.affiliates[0])
      expect('program-id' in options).toBe(tool.programId !== undefined)
    }
  })

  it("is csvSource's layouts, each with its tool's label", () => {
    expect(Object.keys(CSV_LAYOUTS)).toEqual(IMPORTER_NAMES)
    for (const name of IMPORTER_NAMES) expect(CSV_LAYOUTS[name]).toEqual({ label: IMPORTERS[name].label, ...IMPORTERS[name].csv })
  })

  it('is the list of docs/migrating.md, and each tool has its section and its row of CSV columns there', () => {
    const migrating = read('docs/migrating.md')
    expect(migrating).toContain(docsList())
    for (const label of labels) {
      expect(migrating).toMatch(new RegExp(`^## ${label}$`, 'm'))
      expect(migrating).toMatch(new RegExp(`^\\| ${label} \\| \``, 'm'))
    }
  })

  it('is the only list: no other file of src/ or the docs names the tools together', () => {
    const words = [...IMPORTER_NAMES, ...labels]
    const others = sourceFiles().filter((file) => file !== REGISTRY)
    expect(quotingFiles(others, IMPORTER_NAMES)).toEqual([])
    const docsListed = (file: string) => (file === 'docs/migrating.md' ? read(file).replace(docsList(), '') : read(file))
    expect([...listsInFiles(others, words), ...listsInFiles(documents(), words, docsListed)]).toEqual([])
  })

  it('finds a list where one is: the lines this registry replaced, and the list of the docs', () => {
    const words = [...IMPORTER_NAMES, ...labels]
    const csvTool = () => "export type CsvTool = 'rewardful' | 'tolt' | 'firstpromoter' | 'dub'"
    expect(quotingFiles(['src/importers/csv/layouts.ts'], IMPORTER_NAMES, csvTool)).toHaveLength(1)
    expect(listsInFiles(['README.md'], words, csvTool)).toHaveLength(1)
    expect(listsInFiles(['README.md'], words, () => 'Switching from Rewardful, Tolt, FirstPromoter or Dub')).toHaveLength(1)
    expect(listsInFiles(['README.md'], words, () => 'Tolt and FirstPromoter `approved`, Dub `processed`')).toEqual([])
    expect(listsInFiles(['docs/migrating.md'], words)).toHaveLength(1)
  })
})
