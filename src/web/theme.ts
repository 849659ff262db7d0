// Theming of the pages: colours, font and logo as CSS variables, checked so that a theme value
// can never break out of its declaration (the stylesheet is served as a file, under a strict CSP).

export interface Theme {
  /** Product name in the header and page titles. @default 'Affiliate portal' */
  title?: string
  /** Logo shown in the header: an https URL or a path on this site. @default none */
  logoUrl?: string
  /** CSS font-family list. @default system-ui, sans-serif */
  font?: string
  /** CSS colours. @default a neutral palette with AA contrast */
  colors?: {
    /** Links, buttons, focus rings. @default '#1d4ed8' */
    primary?: string
    /** Text on primary. @default '#ffffff' */
    onPrimary?: string
    /** Page background. @default '#f6f7f9' */
    background?: string
    /** Cards and the header. @default '#ffffff' */
    surface?: string
    /** Body text. @default '#111827' */
    text?: string
    /** Secondary text (keep 4.5:1 contrast on surface). @default '#4b5563' */
    muted?: string
    /** Borders. @default '#d1d5db' */
    border?: string
    /** Error messages. @default '#b91c1c' */
    danger?: string
  }
}

const DEFAULT_COLORS: Required<NonNullable<Theme['colors']>> = {
  primary: '#1d4ed8',
  onPrimary: '#ffffff',
  background: '#f6f7f9',
  surface: '#ffffff',
  text: '#111827',
  muted: '#4b5563',
  border: '#d1d5db',
  danger: '#b91c1c',
}

const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]+|(rgb|rgba|hsl|hsla|oklch|oklab)\([0-9a-zA-Z.,%/ +-]{1,60}\))$/
const FONT = /^[A-Za-z0-9 ,'"_-]{1,200}$/

export interface ResolvedTheme {
  title: string
  logoUrl: string | null
  /** The `:root { ... }` block of the stylesheet. */
  variables: string
  /** Origin of an absolute logo URL, for the CSP's img-src; null when none or same-site. */
  logoOrigin: string | null
}

/** Checks a theme; throws a TypeError naming the bad value. */
export function resolveTheme(theme: Theme = {}): ResolvedTheme {
  const colors = { ...DEFAULT_COLORS, ...theme.colors }
  for (const [name, value] of Object.entries(colors)) {
    if (typeof value !== 'string' || !COLOR.test(value)) throw new TypeError(`theme.colors.${name} must be a CSS colour (#hex, a name, rgb(), hsl(), oklch())`)
  }
  const font = theme.font ?? 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
  if (!FONT.test(font)) throw new TypeError('theme.font must be a CSS font-family list (letters, digits, spaces, commas, quotes)')
  let logoOrigin: string | null = null
  if (theme.logoUrl !== undefined) {
    const url = theme.logoUrl
    const local = url.startsWith('/') && !url.startsWith('//')
    if (!local && !(URL.canParse(url) && new URL(url).protocol === 'https:')) throw new TypeError('theme.logoUrl must be an https URL or a path starting with /')
    if (!local) logoOrigin = new URL(url).origin
  }
  const title = theme.title ?? 'Affiliate portal'
  if (typeof title !== 'string' || title.length === 0 || title.length > 100) throw new TypeError('theme.title must be 1 to 100 characters')
  const kebab = (name: string) => name.replace(/[A-Z]/g, (char) => `-${char.toLowerCase()}`)
  const lines = Object.entries(colors).map(([name, value]) => `  --ak-${kebab(name)}: ${value};`)
  lines.push(`  --ak-font: ${font};`)
  return { title, logoUrl: theme.logoUrl ?? null, logoOrigin, variables: `:root {\n${lines.join('\n')}\n}\n` }
}
