// One registry per extension: the languages are LANGUAGES in src/core/model/i18n/locales.ts (its code,
// its name in itself, its catalogue), and every other list (the schemas' picklists and so the
// OpenAPI documents, the portal's and the console's language selects, the list in docs/email.md)
// derives from it; no other file of src/ or the docs lists them. A new language is its catalogue
// and its line in the registry.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { serverConfig } from '../../../src/cli/config.js'
import { LANGUAGES, LOCALES } from '../../../src/core/model/i18n/locales.js'
import { CATALOGUES } from '../../../src/core/model/i18n/translate.js'
import { locale } from '../../../src/core/model/schemas.js'
import { openApiDocument } from '../../../src/http/openapi.js'
import { documents, listsInFiles, quotingFiles, read, ROOT, sourceFiles } from '../../support/registries/lists.js'

const REGISTRY = 'src/core/model/i18n/locales.ts'
const CATALOGUE_FOLDER = 'src/core/model/i18n/catalogues'
const names = LOCALES.map((code) => LANGUAGES[code].name)

/** The one list of the docs: docs/email.md's languages, each by its name and code. */
const docsList = () => LOCALES.map((code) => `${LANGUAGES[code].name} (\`${code}\`)`).join(', ')

/** Every `enum` of a JSON document that holds a language code. */
function localeEnums(document: unknown): unknown[][] {
  const found: unknown[][] = []
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (node === null || typeof node !== 'object') return
    const { enum: values } = node as { enum?: unknown }
    if (Array.isArray(values) && values.includes('de')) found.push(values)
    Object.values(node).forEach(visit)
  }
  visit(document)
  return found
}

describe('the languages registry', () => {
  it('gives every language its catalogue file, English the TypeScript reference', () => {
    expect(LOCALES[0]).toBe('en')
    expect(existsSync(join(ROOT, CATALOGUE_FOLDER, 'en.ts'))).toBe(true)
    for (const code of LOCALES.slice(1)) expect(existsSync(join(ROOT, CATALOGUE_FOLDER, `${code}.json`)), code).toBe(true)
    for (const code of LOCALES) expect(CATALOGUES[code]).toBe(LANGUAGES[code].catalogue)
  })

  it("is the schemas' picklists: the program's input, the server's config and both OpenAPI documents", () => {
    for (const code of LOCALES) expect(v.is(locale, code)).toBe(true)
    expect(v.is(locale, 'it')).toBe(false)
    expect(v.safeParse(serverConfig, { portal: { enabled: true, locale: 'it' } }).success).toBe(false)
    expect(v.safeParse(serverConfig, { portal: { enabled: true, locale: LOCALES.at(-1) } }).success).toBe(true)
    for (const shape of ['primary', 'alternative'] as const) {
      const enums = localeEnums(openApiDocument('/api/v1', shape))
      expect(enums.length, shape).toBeGreaterThan(0)
      for (const values of enums) expect(values.filter((value) => value !== null)).toEqual(LOCALES)
    }
  })

  it('is the list of docs/email.md', () => {
    expect(read('docs/email.md')).toContain(docsList())
  })

  it('is the only list: no other file of src/ or the docs names the languages together', () => {
    const words = [...LOCALES, ...names]
    const others = sourceFiles().filter((file) => file !== REGISTRY && !file.startsWith(CATALOGUE_FOLDER))
    expect(quotingFiles(others, LOCALES)).toEqual([])
    const docsListed = (file: string) => (file === 'docs/email.md' ? read(file).replace(docsList(), '') : read(file))
    expect([...listsInFiles(others, words), ...listsInFiles(documents(), words, docsListed)]).toEqual([])
  })

  it("finds a list where one is: the console's select this registry replaced, and the list of the docs", () => {
    const words = [...LOCALES, ...names]
    const select = () => "[['', 'the browser’s, else the program’s'], ['en', 'English'], ['de', 'Deutsch'], ['fr', 'Français'], ['es', 'Español']]"
    expect(quotingFiles(['src/admin/pages/affiliate-edit.ts'], LOCALES, select)).toHaveLength(1)
    expect(listsInFiles(['README.md'], words, () => 'in the visitor’s language (en, de, fr, es)')).toHaveLength(1)
    expect(listsInFiles(['docs/email.md'], words)).toHaveLength(1)
  })
})
