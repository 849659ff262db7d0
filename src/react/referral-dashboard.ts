// <ReferralDashboard> (docs/embed.md "React"): the <affiliate-kit-dashboard> element of
// affiliate-kit/embed in a React app. It asks the host's server for a token through `fetchToken`,
// and again, once, when the dashboard says its token expired or is not valid.
import { createElement, useEffect, useRef, useState, type CSSProperties, type ReactElement } from 'react'
import { DASHBOARD_TAG, defineDashboardElement, type DashboardMessage } from '../embed/dashboard-element.js'

/** The host's look, passed on as the element's `theme` and CSS custom properties. */
export interface DashboardAppearance {
  /** @default 'light' */
  theme?: 'light' | 'dark'
  /** CSS colours (#hex, a name, rgb(), hsl(), oklch()). */
  colors?: { primary?: string; onPrimary?: string; background?: string; surface?: string; text?: string; muted?: string; border?: string; danger?: string }
  /** A CSS font-family list. */
  font?: string
  /** The corner radius of cards, fields and buttons, such as 8px or .5rem. */
  radius?: string
}

export interface ReferralDashboardProps {
  /** Asks your server for an embed token of the signed-in user (POST /api/v1/embed-tokens, or program.embed.createToken). */
  fetchToken: () => Promise<string>
  /** The portal's public URL with its path, such as https://partners.example.com/portal. */
  baseUrl: string
  appearance?: DashboardAppearance
  /** Sections to leave out: links, earnings, conversions, payouts. */
  hide?: readonly ('links' | 'earnings' | 'conversions' | 'payouts')[]
  /** The dashboard's language, a code of docs/email.md "Languages"; @default the affiliate's, else the browser's */
  lang?: string
  /** The frame's accessible name. @default 'Referral dashboard' */
  title?: string
  className?: string
  /** Called with each message of the dashboard (ready, resize, refused). */
  onMessage?: (message: DashboardMessage) => void
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

function styleOf(appearance: DashboardAppearance | undefined): CSSProperties {
  const style: Record<string, string> = {}
  for (const [name, value] of Object.entries(appearance?.colors ?? {})) if (value) style[`--ak-${kebab(name)}`] = value
  if (appearance?.font) style['--ak-font'] = appearance.font
  if (appearance?.radius) style['--ak-radius'] = appearance.radius
  return style as CSSProperties
}

export function ReferralDashboard({ fetchToken, baseUrl, appearance, hide, lang, title, className, onMessage }: ReferralDashboardProps): ReactElement {
  const [token, setToken] = useState<string | null>(null)
  const element = useRef<HTMLElement | null>(null)
  const renewed = useRef(false)
  const fetcher = useRef(fetchToken)
  fetcher.current = fetchToken
  const listener = useRef(onMessage)
  listener.current = onMessage

  useEffect(() => {
    defineDashboardElement()
    let live = true
    void fetcher.current().then((fresh) => live && setToken(fresh))
    return () => {
      live = false
    }
  }, [])

  useEffect(() => {
    const node = element.current
    if (!node) return
    const types = ['affiliate-kit:ready', 'affiliate-kit:resize', 'affiliate-kit:refused'] as const
    const handle = (event: Event) => {
      const message = (event as CustomEvent<DashboardMessage>).detail
      listener.current?.(message)
      if (message.type === 'affiliate-kit:refused' && (message.reason === 'expired' || message.reason === 'invalid') && !renewed.current) {
        renewed.current = true
        void fetcher.current().then(setToken)
      }
    }
    for (const type of types) node.addEventListener(type, handle)
    return () => {
      for (const type of types) node.removeEventListener(type, handle)
    }
  }, [token])

  return createElement(DASHBOARD_TAG, {
    ref: element,
    ...(token ? { token } : {}),
    'base-url': baseUrl,
    theme: appearance?.theme ?? 'light',
    ...(hide && hide.length > 0 ? { hide: hide.join(',') } : {}),
    ...(lang ? { lang } : {}),
    ...(title ? { title } : {}),
    ...(className ? { className } : {}),
    style: styleOf(appearance),
  })
}
