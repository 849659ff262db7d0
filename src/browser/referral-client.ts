// The browser side of referral tracking, as one self-contained function: the tracking handler
// serves its source as a plain <script>, so it may use nothing from outside its own body.
// The referral is stored as the tracking handler wrote it: `<code>.<expiry>`, or signed (two more
// parts) when a click was counted; a signup sends it, and only a signed one is attributed.

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
  /** As stored and sent with a signup: `<code>.<expires>`, plus a signature when a counted click gave it. */
  value: string
}

export interface ReferralClient {
  /** The stored referral code, or null when none or expired: pass it to signup or Stripe Checkout's client_reference_id. */
  getReferral(): string | null
  /**
   * Stores the referral a referral link carried to this page (its parameter named like the
   * cookie, then removed from the address bar), or else one found in the configured query
   * parameters, which it also reports as a click.
   */
  capture(): Referral | null
  /**
   * Reports a signup of `email` with the stored referral. Resolves with whether it was reported
   * and why not: `{ signedUp: true, reason: 'created' | 'unchanged' }`, or `signedUp: false` with
   * the reason (SignupReason) and, for a refusal, the handler's message.
   */
  signup(email: string): Promise<SignupResult>
  /**
   * What the stored referral gives the visitor, for a banner (docs/incentives.md): resolves with
   * `{ text: '20% off for 3 months via Ann', percent_off, amount_off, currency, duration,
   * duration_in_months, via }`, or null when there is no referral, no incentive, or no answer.
   * `locale` picks the language (else the browser's Accept-Language).
   */
  incentive(locale?: string): Promise<Incentive | null>
}

/** The tracking handler's answer to GET <prefix>/-/incentive when an incentive applies. */
export interface Incentive {
  text: string
  percent_off: number | null
  /** Decimal text in `currency`. */
  amount_off: string | null
  currency: string | null
  duration: 'once' | 'repeating' | 'forever'
  duration_in_months: number | null
  /** The affiliate's first name, or null. */
  via: string | null
}

/**
 * created: attributed; unchanged: reported, the customer was known already (nothing attributed);
 * no-referral: none stored, or it expired; unsigned-referral: the click that stored it counted
 * nothing (a bot's User-Agent, or its address past its new visitors of the day: the link's
 * X-Affiliate-Kit-Counted header said which), so it cannot be attributed; already-signed-up:
 * this referral was used by a signup before; not-configured: no endpoint or publishable key;
 * refused: the handler said no (see `message`); unreachable: the request failed.
 */
export type SignupReason = 'created' | 'unchanged' | 'no-referral' | 'unsigned-referral' | 'already-signed-up' | 'not-configured' | 'refused' | 'unreachable'

export interface SignupResult {
  signedUp: boolean
  reason: SignupReason
  /** The handler's error for a refusal. */
  message?: string
}

export function referralClient(options: ReferralClientOptions = {}): ReferralClient {
  const name = options.cookieName || 'ak_ref'
  const days = options.cookieDays || 60
  const pattern = /^([A-Za-z0-9_-]{3,64})\.(\d{1,12})(\.[A-Za-z0-9_-]{16}(\.[A-Za-z0-9_-]{16})?\.[A-Za-z0-9_-]{22})?$/
  const now = () => Math.floor(Date.now() / 1000)
  const parse = (value: string | null | undefined): Referral | null => {
    const match = value ? pattern.exec(value) : null
    return match && +match[2]! > now() ? { code: match[1]!, expires: +match[2]!, value: value! } : null
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
    const value = referral.value
    document.cookie = `${name}=${value}; Max-Age=${referral.expires - now()}; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`
    try {
      // The fallback for browsers that refuse the cookie.
      localStorage.setItem(name, value)
    } catch {
      // Storage may be disabled; the cookie alone then carries the referral.
    }
  }
  /** The report's answer: its status (0: not sent or failed) and JSON body. */
  const send = (path: string, body: Record<string, string>): Promise<{ status: number; body: { referral?: string; outcome?: string; error?: string } | null }> =>
    options.endpoint && options.key
      ? fetch(`${options.endpoint}/${path}`, {
          method: 'POST',
          keepalive: true,
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.key}` },
          body: JSON.stringify(body),
        })
          .then((response) =>
            response.json().then(
              (json) => ({ status: response.status, body: json }),
              () => ({ status: response.status, body: null }),
            ),
          )
          .catch(() => ({ status: 0, body: null }))
      : Promise.resolve({ status: 0, body: null })
  /** The JSON answer of a report, or null when it was not sent, failed or was refused. */
  const report = (path: string, body: Record<string, string>) => send(path, body).then((answer) => (answer.status >= 200 && answer.status < 300 ? answer.body : null))
  const kept = (current: Referral | null, code: string) => current && current.code !== code && options.model !== 'last_click'

  return {
    getReferral: () => stored()?.code ?? null,
    capture() {
      const query = new URLSearchParams(location.search)
      const current = stored()
      // A referral link's redirect: the click is counted and the referral signed already.
      const carried = parse(query.get(name))
      if (carried) {
        const url = new URL(location.href)
        url.searchParams.delete(name)
        history.replaceState(history.state, '', url.href)
        // A signed referral of the same code is not traded for an unsigned one (a visit past its address's bound).
        if (kept(current, carried.code) || (current && current.code === carried.code && !carried.value.split('.')[2])) return current
        store(carried)
        return carried
      }
      let code: string | null = null
      for (const param of options.params || ['ref', 'via']) code = code || query.get(param)
      if (!code || !/^[A-Za-z0-9_-]{3,64}$/.test(code)) return current
      if (kept(current, code)) return current
      const expires = now() + days * 86400
      const referral = current && current.code === code ? current : { code, expires, value: `${code}.${expires}` }
      store(referral)
      // A paid ad's click id on the landing (docs/fraud.md): the handler marks the click, not the id.
      const ad = ['gclid', 'fbclid', 'msclkid'].filter((param) => query.get(param))[0]
      void report('clicks', ad ? { referral_code: code, paid_ad_click_id: ad } : { referral_code: code }).then((answer) => {
        const signed = parse(answer && answer.referral)
        if (signed) store(signed)
      })
      return referral
    },
    incentive(locale) {
      const referral = stored()
      if (!referral || !options.endpoint || !options.key) return Promise.resolve(null)
      return fetch(`${options.endpoint}/incentive?referral=${referral.code}${locale ? `&locale=${encodeURIComponent(locale)}` : ''}`, { headers: { Authorization: `Bearer ${options.key}` } })
        .then((response) => (response.ok ? response.json() : null))
        .then((json: Incentive | { text: null } | null) => (json && json.text ? (json as Incentive) : null))
        .catch(() => null)
    },
    signup(email) {
      const referral = stored()
      const not = (reason: SignupReason, message?: string): SignupResult => (message ? { signedUp: false, reason, message } : { signedUp: false, reason })
      if (!referral) return Promise.resolve(not('no-referral'))
      if (!options.endpoint || !options.key) return Promise.resolve(not('not-configured'))
      // Only a counted click signs the referral (three parts): an unsigned one would be refused.
      if (!referral.value.split('.')[2]) return Promise.resolve(not('unsigned-referral', 'the click that stored this referral counted nothing (a bot, or its address past its new visitors of the day)'))
      return send('signups', { email, referral: referral.value }).then((answer): SignupResult => {
        if (answer.status === 201 || answer.status === 200) return { signedUp: true, reason: answer.body && answer.body.outcome === 'unchanged' ? 'unchanged' : 'created' }
        if (answer.status === 0) return not('unreachable')
        const message = (answer.body && answer.body.error) || `HTTP ${answer.status}`
        return not(answer.status === 409 ? 'already-signed-up' : 'refused', message)
      })
    },
  }
}
