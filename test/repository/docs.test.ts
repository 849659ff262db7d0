// The documentation users read: README.md and docs/. Code, tests and docs cite docs/ files, never
// the internal spec files; every relative link (and #heading) in README.md and docs/*.md resolves;
// the README's Configuration table names every key of the server's config.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { serverConfig } from '../../src/cli/config.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const self = fileURLToPath(import.meta.url)

function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesUnder(path))
    else out.push(path)
  }
  return out
}

const docPages = () => readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(root, 'docs', name))
const markdownFiles = () => [join(root, 'README.md'), ...docPages()]

/** Markdown text without fenced code blocks and inline code spans, where links are not links. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
}

/** GitHub's heading anchors: lower-cased, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '')
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

interface Link {
  from: string
  target: string
}

function relativeLinks(file: string): Link[] {
  const links: Link[] = []
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
    links.push({ from: file, target })
  }
  return links
}

/** Why the link is broken, or null when it resolves. */
function brokenReason({ from, target }: Link): string | null {
  const [path = '', anchor] = target.split('#')
  const file = path === '' ? from : resolve(dirname(from), decodeURIComponent(path))
  if (!existsSync(file)) return 'no such file'
  if (anchor === undefined || anchor === '') return null
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return 'anchor on a non-markdown target'
  return anchors(readFileSync(file, 'utf8')).has(anchor.toLowerCase()) ? null : `no heading #${anchor}`
}

describe('documentation', () => {
  test('examples/README.md says how to run every example, with the command its source names', () => {
    const guide = readFileSync(join(root, 'examples', 'README.md'), 'utf8')
    const examples = readdirSync(join(root, 'examples'), { withFileTypes: true }).filter((entry) => entry.isDirectory())
    expect(examples.length).toBeGreaterThan(0)
    for (const { name } of examples) {
      expect(guide, name).toMatch(new RegExp(`^\\| \\[${name}\\]\\(${name}/[^)]+\\) \\|[^|]+\\| .*\\S.* \\|$`, 'm'))
      for (const file of readdirSync(join(root, 'examples', name), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'))) {
        const named = readFileSync(join(root, 'examples', name, file), 'utf8').match(/`((?:PORT=\d+ )?(?:node --import tsx|bun) examples\/[^`]+?)`/)
        if (named) expect(guide, `${name}/${file}`).toContain(`\`${named[1]}\``)
      }
    }
  })

  test('no source, test, bench, example, docs or README text cites SPEC or DECISIONS files', () => {
    const files = [
      ...['src', 'test', 'bench', 'examples', 'docs'].flatMap((dir) => filesUnder(join(root, dir))),
      join(root, 'README.md'),
    ].filter((file) => file !== self)
    expect(files.length).toBeGreaterThan(100)
    const citing: string[] = []
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (/\b(?:SPEC|DECISIONS)(?:\.md)?\b/.test(line)) citing.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`)
        })
    }
    expect(citing).toEqual([])
  })

  test('the docs describe the library, not a hosted service', () => {
    const mentions = docPages().filter((file) => /hosted service/i.test(readFileSync(file, 'utf8')))
    expect(mentions.map((file) => relative(root, file))).toEqual([])
  })

  test('every relative link in README.md and docs/*.md points at an existing file and heading', () => {
    const links = markdownFiles().flatMap(relativeLinks)
    expect(links.length).toBeGreaterThan(50)
    const broken = links
      .map((link) => ({ link, reason: brokenReason(link) }))
      .filter((item) => item.reason !== null)
      .map(({ link, reason }) => `${relative(root, link.from)} -> ${link.target}: ${reason}`)
    expect(broken).toEqual([])
  })

  test('the README links the docs index, and the index links every page of docs/', () => {
    const readmeTargets = relativeLinks(join(root, 'README.md')).map((link) => link.target.split('#')[0])
    expect(readmeTargets).toContain('docs/README.md')
    const indexTargets = new Set(relativeLinks(join(root, 'docs', 'README.md')).map((link) => link.target.split('#')[0]))
    const pages = docPages()
      .map((file) => relative(join(root, 'docs'), file))
      .filter((name) => name !== 'README.md')
    expect(pages.length).toBeGreaterThanOrEqual(8)
    expect(pages.filter((page) => !indexTargets.has(page))).toEqual([])
  })

  test("the README's Configuration table has a row for every top-level key serve --config takes", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('### Configuration (`--config affiliate.config.json`)'))
    const rows = new Set([...section.matchAll(/^\| `([A-Za-z]+)[.`]/gm)].map((match) => match[1]))
    expect(Object.keys(serverConfig.entries).filter((key) => !rows.has(key))).toEqual([])
  })

  test('the link checker sees broken files and headings', () => {
    const readme = join(root, 'README.md')
    expect(brokenReason({ from: readme, target: 'docs/missing.md' })).toBe('no such file')
    expect(brokenReason({ from: readme, target: 'docs/api.md#no-such-heading' })).toBe('no heading #no-such-heading')
    expect(brokenReason({ from: readme, target: 'docs/api.md#errors' })).toBeNull()
    expect(anchors('# A `code` (title)\n## Same\n## Same')).toEqual(new Set(['a-code-title', 'same', 'same-1']))
  })
})
