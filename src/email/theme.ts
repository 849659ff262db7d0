// The program's name, logo and colours in a mail: the portal's theme (docs/portal.md "Theme"),
// each colour checked so that a value can never break out of its style attribute.

export interface MailTheme {
  /** The program's name in subjects and headers. @default 'Affiliate program' */
  title?: string
  /** An https URL. @default none */
  logoUrl?: string
  colors?: { primary?: string; onPrimary?: string; background?: string; surface?: string; text?: string; muted?: string; border?: string }
}

export interface ResolvedMailTheme {
  title: string
  logoUrl: string | null
  colors: { primary: string; onPrimary: string; background: string; surface: string; text: string; muted: string; border: string }
}

const DEFAULTS: ResolvedMailTheme['colors'] = {
  primary: '#1d4ed8',
  onPrimary: '#ffffff',
  background: '#f6f7f9',
  surface: '#ffffff',
  text: '#111827',
  muted: '#4b5563',
  border: '#d1d5db',
}

const SAFE_COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(rgb|hsl)a?\([\d\s.,%/]{1,60}\))$/

export function resolveMailTheme(theme: MailTheme = {}): ResolvedMailTheme {
  const colors = { ...DEFAULTS }
  for (const [name, value] of Object.entries(theme.colors ?? {})) {
    if (!(name in DEFAULTS) || value === undefined) continue
    if (!SAFE_COLOR.test(value)) throw new TypeError(`theme.colors.${name} must be a CSS colour such as #1d4ed8`)
    colors[name as keyof typeof colors] = value
  }
  const logoUrl = theme.logoUrl && /^https:\/\//.test(theme.logoUrl) ? theme.logoUrl : null
  return { title: theme.title ?? 'Affiliate program', logoUrl, colors }
}
