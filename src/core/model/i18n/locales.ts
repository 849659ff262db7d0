// The languages of the portal and the emails, one line each (its code, its name in itself, its
// catalogue in ./catalogues), and how a request picks one: the affiliate's `locale`, else the
// browser's Accept-Language, else the program's default (docs/email.md "Languages"). The schemas'
// picklists, the portal's and the console's language selects and the list in docs/email.md derive
// from LANGUAGES (test/core/model/locales-registry.test.ts fails when another file lists the languages).
// Adding a language: its catalogue catalogues/<code>.json, its import and its line here.
import de from './catalogues/de.json'
import { en } from './catalogues/en.js'
import es from './catalogues/es.json'
import fr from './catalogues/fr.json'

export type MessageKey = keyof typeof en
export type Catalogue = Partial<Record<MessageKey, string>>

export interface Language {
  /** The language's name in itself (Deutsch), as the language selects show it. */
  name: string
  catalogue: Catalogue
}

const language = (name: string, catalogue: Catalogue): Language => ({ name, catalogue })

const REGISTERED = {
  en: language('English', en),
  de: language('Deutsch', de),
  fr: language('Français', fr),
  es: language('Español', es),
}

export type Locale = keyof typeof REGISTERED

export const LANGUAGES: { readonly [locale in Locale]: Language } = REGISTERED

/** The language codes, in the registry's order (English first: the reference every catalogue translates). */
export const LOCALES = Object.keys(LANGUAGES) as Locale[]

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

/** The first supported language of an Accept-Language header, by its q weights; null when none is. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null
  const ranked = header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';')
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean)
      return { language: range.trim().toLowerCase().split('-')[0]!, q: q === undefined ? 1 : Number(q), index }
    })
    .filter((entry) => entry.q > 0 && isLocale(entry.language))
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return (ranked[0]?.language as Locale | undefined) ?? null
}

/** The language to use: the affiliate's own, else the browser's, else the program's, else English. */
export function chooseLocale(affiliateLocale: string | null | undefined, acceptLanguage: string | null | undefined, programLocale: string | null | undefined): Locale {
  if (isLocale(affiliateLocale)) return affiliateLocale
  return localeFromAcceptLanguage(acceptLanguage) ?? (isLocale(programLocale) ? programLocale : 'en')
}
