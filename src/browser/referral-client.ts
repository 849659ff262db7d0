// The browser side of referral tracking, as one self-contained function: the tracking handler
// serves its source as a plain <script>, so it may use nothing from outside its own body.

export interface ReferralClientOptions {
  /** The tracking handler's publishable endpoint, e.g. `https://api.example.com/r/-`. Without it nothing is reported. */
  endpoint?: string
  /** A publishable key (`rgp_...`); needed to report clicks and signups. */
  key?: string
  /** Query parameters that carry a referral code. @default ['ref', 'via'] */
  params?: string[]
  /** @default 'ak_ref' */
  cookieName?: string
  /** @default 60 */
  cookieDays?: number
  /** first_click keeps a stored referral that has not expired; last_click replaces it. @default 'first_click' */
  model?: 'first_click' | 'last_click'
}

export interface Referral {
  code: string
  /** Unix seconds. */
  expires: number
}

export interface ReferralClient {
  /** The stored referral code, or null when none or expired: pass it to signup or Stripe Checkout's client_reference_id. */
  getReferral(): string | null
  /** Reads the configured query parameters of the page; stores and reports a referral found there. */
  capture(): Referral | null
  /** Reports a signup of `email` with the stored referral; resolves false when there is none or the report failed. */
  signup(email: string): Promise<boolean>
}

export function referralClient(options: ReferralClientOptions = {}): ReferralClient {
  const name = options.cookieName || 'ak_ref'
  const days = options.cookieDays || 60
  const pattern = /^([A-Za-z0-9_-]{3,64})\.(\d{1,12})$/
  const now = () => Math.floor(Date.now() / 1000)
  const parse = (value: string | null | undefined): Referral | null => {
    const match = value ? pattern.exec(value) : null
    return match && +match[2]! > now() ? { code: match[1]!, expires: +match[2]! } : null
  }
  const stored = (): Referral | null => {
    for (const part of document.cookie.split('; ')) {
      if (part.indexOf(`${name}=`) === 0) {
        const found = parse(part.slice(name.length + 1))
        if (found) return found
      }
    }
    try {
      return parse(localStorage.getItem(name))
    } catch {
      return null
    }
  }
  const store = (referral: Referral) => {
    const value = `${referral.code}.${referral.expires}`
    document.cookie = `${name}=${value}; Max-Age=${referral.expires - now()}; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`
    try {
      // The fallback for browsers that refuse the cookie.
      localStorage.setItem(name, value)
    } catch {
      // Storage may be disabled; the cookie alone then carries the referral.
    }
  }
  const report = (path: string, body: Record<string, string>): Promise<boolean> =>
    options.endpoint && options.key
      ? fetch(`${options.endpoint}/${path}`, {
          method: 'POST',
          keepalive: true,
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.key}` },
          body: JSON.stringify(body),
        }).then(
          (response) => response.ok,
          () => false,
        )
      : Promise.resolve(false)

  return {
    getReferral: () => stored()?.code ?? null,
    capture() {
      const query = new URLSearchParams(location.search)
      let code: string | null = null
      for (const param of options.params || ['ref', 'via']) code = code || query.get(param)
      const current = stored()
      if (!code || !/^[A-Za-z0-9_-]{3,64}$/.test(code)) return current
      if (current && current.code !== code && options.model !== 'last_click') return current
      const referral = current && current.code === code ? current : { code, expires: now() + days * 86400 }
      store(referral)
      void report('clicks', { referral_code: code })
      return referral
    },
    signup(email) {
      const code = stored()?.code
      return code ? report('signups', { email, referral_code: code }) : Promise.resolve(false)
    },
  }
}
