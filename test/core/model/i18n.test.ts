// The message catalogues (src/core/model/i18n/catalogues/: en.ts and *.json, docs/email.md "Languages"): every
// language has every key of the English one and the same placeholders, a missing key falls back
// to English, and the language a page or mail uses is the affiliate's, else the browser's, else
// the program's.
import { describe, expect, it } from 'vitest'
import { chooseLocale, LOCALES, localeFromAcceptLanguage } from '../../../src/core/model/i18n/locales.js'
import { CATALOGUES, formatAmount, translator } from '../../../src/core/model/i18n/translate.js'

const english = CATALOGUES.en as Record<string, string>
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe('message catalogues', () => {
  it.each(LOCALES.filter((locale) => locale !== 'en'))('%s has every English key, no other, with the same placeholders', (locale) => {
    const catalogue = CATALOGUES[locale] as Record<string, string>
    expect(Object.keys(english).filter((key) => !(key in catalogue))).toEqual([])
    expect(Object.keys(catalogue).filter((key) => !(key in english))).toEqual([])
    const mismatched = Object.keys(english).filter((key) => catalogue[key] !== undefined && placeholders(catalogue[key]!).join() !== placeholders(english[key]!).join())
    expect(mismatched).toEqual([])
  })

  it('a key a catalogue misses falls back to English', () => {
    const german = CATALOGUES.de as Record<string, string>
    const saved = german['mail.sign_in.action']
    delete german['mail.sign_in.action']
    try {
      expect(translator('de')('mail.sign_in.action')).toBe('Sign in')
      expect(translator('de')('mail.sign_in.subject', { program: 'Acme' })).toBe('Ihr Anmeldelink für Acme')
    } finally {
      german['mail.sign_in.action'] = saved!
    }
  })

  it('amounts are exact in any size and currency', () => {
    expect(formatAmount(123456789012345678n, 'EUR', 'de')).toBe('1.234.567.890.123.456,78\u00a0€')
    expect(formatAmount(-5n, 'USD', 'en')).toBe('-$0.05')
    expect(formatAmount(1500n, 'JPY', 'fr')).toBe('1\u202f500\u00a0JPY')
  })
})

describe('which language', () => {
  it('the affiliate’s own, else the browser’s best supported, else the program’s, else English', () => {
    expect(chooseLocale('es', 'de', 'fr')).toBe('es')
    expect(chooseLocale(null, 'it-IT,it;q=0.9,de;q=0.8,fr;q=0.7', 'es')).toBe('de')
    expect(chooseLocale(null, 'it, pt', 'fr')).toBe('fr')
    expect(chooseLocale(null, null, null)).toBe('en')
    expect(localeFromAcceptLanguage('fr;q=0.2, es;q=0.9')).toBe('es')
    expect(localeFromAcceptLanguage('de;q=0, en')).toBe('en')
  })
})
