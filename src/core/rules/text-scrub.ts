// The text patterns an erasure replaces (docs/privacy.md): one literal, matched in any case, read
// alike by JavaScript regular expressions and PostgreSQL's (ASCII punctuation escaped, nothing else).
import type { TextScrub } from '../ports/storage.js'

/** `text` as a pattern matching itself, for a case-insensitive regular expression. */
export function literalPattern(text: string): string {
  return text.replace(/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g, '\\$&')
}

/** The scrub as one function over a stored text (the memory adapter's). */
export function scrubber(scrub: TextScrub): {
  touches(text: string): boolean
  apply(text: string): string
  /** apply without the check: for the texts of a value already found to hold one. */
  force(text: string): string
} {
  const everywhere = scrub.everywhere.filter((entry) => entry.from !== '')
  const alongside = scrub.alongside.filter((entry) => entry.from !== '')
  const any = everywhere.length === 0 ? null : new RegExp(everywhere.map((entry) => literalPattern(entry.from)).join('|'), 'i')
  const replaceAll = (text: string, entries: typeof everywhere) =>
    entries.reduce((result, entry) => result.replace(new RegExp(literalPattern(entry.from), 'gi'), () => entry.to), text)
  return {
    touches: (text) => any !== null && any.test(text),
    apply: (text) => (any !== null && any.test(text) ? replaceAll(replaceAll(text, everywhere), alongside) : text),
    force: (text) => replaceAll(replaceAll(text, everywhere), alongside),
  }
}
