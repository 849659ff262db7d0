// <affiliate-kit-dashboard> (docs/embed.md "Web component"): the embedded dashboard as a custom
// element. Its Shadow DOM holds the dashboard's own page in an iframe, so there is one
// implementation of the view, and the element brings the host's look to it: `theme`, and the
// CSS custom properties --ak-primary, --ak-background, ..., --ak-font and --ak-radius set on it.
// It grows with the page (`affiliate-kit:resize`) and re-emits the page's messages as DOM events.

export const DASHBOARD_TAG = 'affiliate-kit-dashboard'

/** The CSS custom properties the element reads, and the query parameter each becomes. */
const VARIABLES = ['primary', 'on-primary', 'background', 'surface', 'text', 'muted', 'border', 'danger', 'font', 'radius'] as const

/** What the dashboard's page tells the element (and the element its page, as DOM events of the same names). */
export interface DashboardMessage {
  type: 'affiliate-kit:ready' | 'affiliate-kit:resize' | 'affiliate-kit:refused'
  height?: number
  /** On `affiliate-kit:refused`: `expired`, `invalid` (fetch a new token) or `blocked`. */
  reason?: string
}

/** The dashboard's URL for the element's attributes and custom properties; null until it has a token and a base URL. */
export function dashboardUrl(element: Pick<HTMLElement, 'getAttribute'>, style: Pick<CSSStyleDeclaration, 'getPropertyValue'> | null): URL | null {
  const token = element.getAttribute('token')
  const base = element.getAttribute('base-url')
  if (!token || !base) return null
  const url = new URL(`${base.replace(/\/+$/, '')}/embed`)
  url.searchParams.set('token', token)
  for (const name of ['theme', 'hide', 'lang'] as const) {
    const value = element.getAttribute(name)
    if (value) url.searchParams.set(name, value)
  }
  for (const name of VARIABLES) {
    const value = style?.getPropertyValue(`--ak-${name}`).trim()
    if (value) url.searchParams.set(name, value)
  }
  return url
}

type ElementClass = new () => HTMLElement

function elementClass(Base: typeof HTMLElement): ElementClass {
  return class AffiliateKitDashboard extends Base {
    static observedAttributes = ['token', 'base-url', 'theme', 'hide', 'lang', 'title']
    #frame: HTMLIFrameElement | null = null
    #origin = ''
    #listening = false

    readonly #onMessage = (event: MessageEvent) => {
      const frame = this.#frame
      if (!frame || event.source !== frame.contentWindow || event.origin !== this.#origin) return
      const message = event.data as DashboardMessage | null
      if (!message || typeof message.type !== 'string' || !message.type.startsWith('affiliate-kit:')) return
      if (typeof message.height === 'number' && message.height > 0) frame.style.height = `${Math.ceil(message.height)}px`
      this.dispatchEvent(new CustomEvent(message.type, { detail: message, bubbles: true, composed: true }))
    }

    connectedCallback() {
      if (!this.shadowRoot) {
        const root = this.attachShadow({ mode: 'open' })
        const style = document.createElement('style')
        style.textContent = ':host { display: block; } iframe { display: block; width: 100%; height: 480px; border: 0; color-scheme: normal; }'
        const frame = document.createElement('iframe')
        frame.setAttribute('part', 'frame')
        frame.setAttribute('referrerpolicy', 'no-referrer')
        root.append(style, frame)
        this.#frame = frame
      }
      if (!this.#listening) window.addEventListener('message', this.#onMessage)
      this.#listening = true
      this.#load()
    }

    disconnectedCallback() {
      window.removeEventListener('message', this.#onMessage)
      this.#listening = false
    }

    attributeChangedCallback() {
      if (this.isConnected) this.#load()
    }

    #load() {
      const frame = this.#frame
      if (!frame) return
      frame.title = this.getAttribute('title') ?? 'Referral dashboard'
      const url = dashboardUrl(this, getComputedStyle(this))
      if (!url) return
      if (frame.src === url.href) return
      this.#origin = url.origin
      frame.src = url.href
    }
  }
}

/** Defines <affiliate-kit-dashboard> once, in a browser; does nothing on a server. */
export function defineDashboardElement(): void {
  const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements
  const Base = (globalThis as { HTMLElement?: typeof HTMLElement }).HTMLElement
  if (!registry || !Base || registry.get(DASHBOARD_TAG)) return
  registry.define(DASHBOARD_TAG, elementClass(Base))
}
