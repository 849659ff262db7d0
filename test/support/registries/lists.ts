// What the registry tests call a list: in src/, a file quoting two registered names ('tolt',
// 'dub'); in src/ and the docs, three registered names or labels one after another with nothing
// but list punctuation between ("Rewardful, Tolt and Dub", `de`, `fr`, `es`, tolt|firstpromoter|dub).
// A line naming one tool, or two with their own words between, is not a list.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const ROOT = resolve(__dirname, '../../..')

function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path, extension) : entry.name.endsWith(extension) ? [path] : []
  })
}

const relativePath = (file: string) => file.slice(ROOT.length + 1)

/** The source files of src/ and the documents (README.md, docs/*.md), as paths from the root. */
export const sourceFiles = () => filesUnder(join(ROOT, 'src'), '.ts').map(relativePath)
export const documents = () => ['README.md', ...filesUnder(join(ROOT, 'docs'), '.md').map(relativePath)]

export const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** The files among `files` that quote at least two of the names. */
export function quotingFiles(files: string[], names: readonly string[], textOf: (file: string) => string = read): string[] {
  return files.filter((file) => {
    const text = textOf(file)
    return names.filter((name) => text.includes(`'${name}'`) || text.includes(`"${name}"`)).length >= 2
  })
}

const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Between two items of a list: spaces, commas, pipes, slashes, quotes, brackets, "and", "or". */
const SEPARATOR = /^(?:[\s,;|/`'"*()[\]]|\band\b|\bor\b)*$/i

/** Where `text` names at least three of the words in a row, with only list punctuation between: the lists' texts. */
export function listsIn(text: string, words: readonly string[]): string[] {
  // A markdown link's target is not text between two items: [Tolt](#tolt), [Dub](#dub).
  const plain = text.replace(/\]\([^)\s]*\)/g, ']')
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${words.map(escaped).join('|')})(?![\\p{L}\\p{N}_])`, 'giu')
  const lists: string[] = []
  let run: { start: number; end: number; named: Set<string> } | null = null
  const close = () => {
    if (run && run.named.size >= 3) lists.push(plain.slice(run.start, run.end))
  }
  for (const match of plain.matchAll(pattern)) {
    const word = match[0].toLowerCase()
    if (run && SEPARATOR.test(plain.slice(run.end, match.index))) {
      run.named.add(word)
      run.end = match.index + match[0].length
      continue
    }
    close()
    run = { start: match.index, end: match.index + match[0].length, named: new Set([word]) }
  }
  close()
  return lists
}

/** Each list found in the files, as `file: text`. */
export function listsInFiles(files: string[], words: readonly string[], textOf: (file: string) => string = read): string[] {
  return files.flatMap((file) => listsIn(textOf(file), words).map((list) => `${file}: ${list}`))
}
