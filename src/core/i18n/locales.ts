// The languages of the portal and the emails, and how a request picks one: the affiliate's
// `locale`, else the browser's Accept-Language, else the program's default (docs/email.md "Languages").

export const LOCALES = ['en', 'de', 'fr', 'es'] as const
export type Locale = (typeof LOCALES)[number]

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
