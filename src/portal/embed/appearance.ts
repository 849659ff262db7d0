// How the embedded dashboard looks (docs/embed.md "Appearance"): light or dark, and the host's
// colours, font and corner radius, read from the page's query (the web component passes its CSS
// custom properties there). Every value is checked as the portal's theme is, so none can break out
// of its declaration; a bad one is answered 400 naming it.
import { resolveTheme, type Theme } from '../../web/theme.js'
import { STYLESHEET } from '../../web/stylesheet.js'

const COLOR_NAMES = ['primary', 'onPrimary', 'background', 'surface', 'text', 'muted', 'border', 'danger'] as const
type ColorName = (typeof COLOR_NAMES)[number]

/** Dark colours with AA contrast, under the host's own colours. */
const DARK: Record<ColorName, string> = {
  primary: '#93c5fd',
  onPrimary: '#0b1220',
  background: '#0b1220',
  surface: '#111827',
  text: '#f9fafb',
  muted: '#cbd5e1',
  border: '#374151',
  danger: '#fca5a5',
}

const RADIUS = /^(0|([0-9]{1,2}|[0-9]{0,2}\.[0-9]{1,3})(px|rem|em))$/

/** The query parameters that carry the appearance, as the web component names them. */
export const APPEARANCE_PARAMS = ['theme', ...COLOR_NAMES.map((name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)), 'font', 'radius'] as const

export interface Appearance {
  /** The appearance's parameters, to carry on to the stylesheet and the next page. */
  query: URLSearchParams
  /** The stylesheet: the theme's variables, the portal's rules, the embed's own. */
  stylesheet: string
}

const EMBED_RULES = `
body { background: var(--ak-background); }
main { max-width: none; padding: .75rem; }
.card { border-radius: var(--ak-radius); }
input, select, textarea, button, .button { border-radius: calc(var(--ak-radius) * .75); }
h1 { font-size: 1.25rem; margin: 0 0 .75rem; }
`

/** The appearance a query asks for, over the portal's theme; a TypeError names a bad value. */
export function appearanceOf(url: URL, base: Theme | undefined): Appearance {
  const query = new URLSearchParams()
  const mode = url.searchParams.get('theme')
  if (mode !== null && mode !== 'light' && mode !== 'dark') throw new TypeError('theme must be light or dark')
  const colors: Partial<Record<ColorName, string>> = mode === 'dark' ? { ...DARK } : { ...base?.colors }
  if (mode) query.set('theme', mode)
  for (const name of COLOR_NAMES) {
    const param = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    const value = url.searchParams.get(param)
    if (value === null) continue
    colors[name] = value
    query.set(param, value)
  }
  const font = url.searchParams.get('font') ?? base?.font
  if (url.searchParams.has('font')) query.set('font', font!)
  const radius = url.searchParams.get('radius') ?? '.5rem'
  if (!RADIUS.test(radius)) throw new TypeError('radius must be a length such as 8px or .5rem')
  if (url.searchParams.has('radius')) query.set('radius', radius)
  const theme = resolveTheme({ colors, ...(font !== undefined ? { font } : {}) })
  const variables = theme.variables.replace('\n}', `\n  --ak-radius: ${radius};\n  color-scheme: ${mode ?? 'light'};\n}`)
  return { query, stylesheet: variables + STYLESHEET + EMBED_RULES }
}
