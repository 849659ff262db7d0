// The embedded dashboard's pages (docs/embed.md), served by the portal under <base>/embed: the
// dashboard a token opens (GET), its payout settings form (POST), and its stylesheet and script.
// No cookie is set or read: the token travels in the URL and the form, so the page works in a
// third-party iframe with third-party cookies blocked. Only the configured origins may frame it.
import { ValidationError } from '../../core/model/errors.js'
import { EMBED_SECTIONS, type EmbedSection } from '../../core/model/embed-token.js'
import type { UpdateAffiliateInput } from '../../core/model/schemas.js'
import { chooseLocale, isLocale, type Locale } from '../../core/model/i18n/locales.js'
import { translator, type Translate } from '../../core/model/i18n/translate.js'
import type { EmbedRefusal } from '../../core/affiliates/embed.js'
import { clientAddress, type ClientInfo } from '../../web/client-address.js'
import { readForm } from '../../web/forms.js'
import { html, type Html } from '../../web/html.js'
import { assetResponse, pageResponse, redirectResponse, staticAsset } from '../../web/responses.js'
import { overClientLimit } from '../../web/sign-in-limits.js'
import type { Clock } from '../../core/model/clock.js'
import type { AffiliateView } from '../../core/rules/views.js'
import type { SubjectLimit } from '../../web/sign-in-limits.js'
import type { Theme } from '../../web/theme.js'
import type { PortalProgram } from '../program.js'
import { APPEARANCE_PARAMS, appearanceOf } from './appearance.js'
import { dashboardBody, settingsValuesOf, type PayoutSettingsValues } from './dashboard-view.js'
import { EMBED_SCRIPT } from './embed-script.js'
import { ENHANCEMENT_SCRIPT } from '../../web/enhancement-script.js'

const script = staticAsset(ENHANCEMENT_SCRIPT + EMBED_SCRIPT, 'text/javascript; charset=utf-8')

/** Each refusal's status: a bad or expired token 401 (the host fetches a new one), a blocked affiliate 403. */
const REFUSAL_STATUS: Record<EmbedRefusal, number> = { invalid: 401, expired: 401, blocked: 403 }

/** What a request to the embed pages carries that the next page must carry too. */
interface EmbedRequest {
  token: string | null
  hide: EmbedSection[]
  lang: Locale | null
  /** The token, the appearance, `hide` and `lang`, as the form's hidden fields and the redirect's query. */
  carried: URLSearchParams
}

/** What the embed pages take of the portal's setup. */
export interface EmbedSetup {
  program: PortalProgram
  /** The portal's base path. */
  base: string
  clock: Clock
  security: Record<string, string>
  theme: Theme | undefined
  /** The portal's language for whoever asks for none. */
  locale: string | undefined
  trustProxy: boolean
  /** Pages a client may load (portal option limits.embedPerClient); null when off. */
  perClient: SubjectLimit | null
  /** The link the affiliate shares, as the portal builds it. */
  referralLink(affiliate: AffiliateView): string | null
}

export interface EmbedPages {
  /** The routes it answers and their methods. */
  allowed(route: string): string[] | null
  answer(call: { request: Request; url: URL; route: string; client: ClientInfo | undefined }): Promise<Response>
}

/** The `frame-ancestors` of the configured origins, and no X-Frame-Options (which cannot name them). */
function framedSecurity(security: Record<string, string>, origins: readonly string[]): Record<string, string> {
  const { 'x-frame-options': _dropped, ...rest } = security
  return { ...rest, 'content-security-policy': rest['content-security-policy']!.replace("frame-ancestors 'self'", `frame-ancestors ${origins.join(' ')}`) }
}

/** Checks the configured origins: each an http(s) origin, no path. */
export function embedOrigins(origins: readonly string[]): string[] {
  if (origins.length === 0) throw new TypeError('embed.allowedOrigins must name at least one origin such as https://app.example.com')
  return origins.map((origin) => {
    const url = URL.canParse(origin) ? new URL(origin) : null
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, '')) throw new TypeError(`embed.allowedOrigins: ${origin} must be an origin such as https://app.example.com (no path)`)
    return url.origin
  })
}

function requestOf(url: URL, form: URLSearchParams | null): EmbedRequest | { badParameter: string } {
  const source = form ?? url.searchParams
  const carried = new URLSearchParams()
  const token = source.get('token')
  if (token !== null) carried.set('token', token)
  const hideText = source.get('hide')
  const hide = hideText === null || hideText === '' ? [] : hideText.split(',')
  if (!hide.every((section): section is EmbedSection => (EMBED_SECTIONS as readonly string[]).includes(section))) {
    return { badParameter: `hide must name sections among ${EMBED_SECTIONS.join(', ')}` }
  }
  if (hideText) carried.set('hide', hideText)
  const langText = source.get('lang')
  if (langText !== null && !isLocale(langText)) return { badParameter: 'lang must be a language of docs/email.md' }
  if (langText !== null) carried.set('lang', langText)
  for (const name of APPEARANCE_PARAMS) {
    const value = source.get(name)
    if (value !== null) carried.set(name, value)
  }
  return { token, hide, lang: langText as Locale | null, carried }
}

export function embedPages(setup: EmbedSetup, allowedOrigins: readonly string[]): EmbedPages {
  const origins = embedOrigins(allowedOrigins)
  const security = framedSecurity(setup.security, origins)
  const { base } = setup
  const paths = { page: `${base}/embed`, stylesheet: `${base}/embed/assets/embed.css`, script: `${base}/embed/assets/embed.js?v=${script.version}` }

  function frame(locale: Locale, t: Translate, body: Html, carried: URLSearchParams, status: number, refused?: EmbedRefusal): Response {
    const appearance = new URLSearchParams([...carried].filter(([name]) => (APPEARANCE_PARAMS as readonly string[]).includes(name)))
    const stylesheet = `${paths.stylesheet}${appearance.size > 0 ? `?${appearance}` : ''}`
    const page = html`<html lang="${locale}" data-parent-origins="${origins.join(' ')}"${refused ? html` data-refused="${refused}"` : null}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${t('embed.title')}</title>
<link rel="stylesheet" href="${stylesheet}">
<script src="${paths.script}" defer></script>
</head>
<body>
<main id="main">
${body}
</main>
</body>
</html>`
    return pageResponse(page, status, { security })
  }

  function refusal(request: Request, embed: Pick<EmbedRequest, 'lang' | 'carried'>, reason: EmbedRefusal | 'too_many' | { badParameter: string }, status: number): Response {
    const locale = chooseLocale(embed.lang, request.headers.get('accept-language'), setup.locale)
    const t = translator(locale)
    const message = typeof reason === 'object' ? reason.badParameter : t(`embed.refused.${reason}`)
    const body = html`<h1>${t('embed.refused.title')}</h1><p class="error" role="alert" data-refusal="${typeof reason === 'object' ? 'bad_parameter' : reason}">${message}</p>`
    // Only the appearance is carried to a refusal, never a token that did not open.
    const appearance = new URLSearchParams([...embed.carried].filter(([name]) => name !== 'token'))
    return frame(locale, t, body, appearance, status, typeof reason === 'string' && reason !== 'too_many' ? reason : undefined)
  }

  async function dashboard(request: Request, url: URL, client: ClientInfo | undefined, form: URLSearchParams | null): Promise<Response> {
    const embed = requestOf(url, form)
    if ('badParameter' in embed) return refusal(request, { lang: null, carried: new URLSearchParams() }, embed, 400)
    const limited = await overClientLimit(setup.perClient, clientAddress(request, client, setup.trustProxy), setup.clock.now(), () => refusal(request, embed, 'too_many', 429))
    if (limited) return limited
    try {
      appearanceOf(new URL(`${paths.page}?${embed.carried}`, url), setup.theme)
    } catch (error) {
      if (error instanceof TypeError) return refusal(request, embed, { badParameter: error.message }, 400)
      throw error
    }
    const opened = await setup.program.embed.open(embed.token)
    if ('refused' in opened) return refusal(request, embed, opened.refused, REFUSAL_STATUS[opened.refused])
    const { affiliate } = opened
    const locale = chooseLocale(embed.lang ?? affiliate.locale, request.headers.get('accept-language'), setup.locale)
    const t = translator(locale)
    let settings: { values: PayoutSettingsValues; saved: boolean; error: string | null } = { values: settingsValuesOf(affiliate), saved: url.searchParams.get('saved') === '1', error: null }
    const hide = [...new Set([...opened.hide, ...embed.hide])]
    if (form !== null) {
      if (hide.includes('payouts')) return refusal(request, embed, { badParameter: 'the payout settings are hidden here' }, 400)
      const values: PayoutSettingsValues = {
        payoutMethod: form.get('payout_method') ?? '',
        paypalEmail: (form.get('paypal_email') ?? '').trim(),
        wiseEmail: (form.get('wise_email') ?? '').trim(),
        paymentDetails: (form.get('payment_details') ?? '').trim(),
      }
      const error = await saveSettings(setup, affiliate.id, affiliate.wiseDetails?.accountId ?? '', values, t)
      if (error === null) return redirectResponse(`${paths.page}?${embed.carried}&saved=1`, { security })
      settings = { values, saved: false, error }
    }
    const body = await dashboardBody({ program: setup.program, affiliate, hide, locale, t, referralLink: setup.referralLink(affiliate), action: paths.page, carried: embed.carried, settings })
    return frame(locale, t, body, embed.carried, settings.error ? 400 : 200)
  }

  return {
    allowed(route) {
      if (route === '/embed') return ['GET', 'POST']
      if (route === '/embed/assets/embed.css' || route === '/embed/assets/embed.js') return ['GET']
      return null
    },
    async answer({ request, url, route, client }) {
      if (route === '/embed/assets/embed.js') return assetResponse(script, request, security)
      if (route === '/embed/assets/embed.css') {
        let stylesheet: string
        try {
          stylesheet = appearanceOf(url, setup.theme).stylesheet
        } catch (error) {
          if (!(error instanceof TypeError)) throw error
          return new Response(error.message, { status: 400, headers: { ...security, 'content-type': 'text/plain; charset=utf-8' } })
        }
        return assetResponse(staticAsset(stylesheet, 'text/css; charset=utf-8'), request, security)
      }
      return dashboard(request, url, client, request.method === 'POST' ? await readForm(request) : null)
    },
  }
}

/** Saves the payout settings through the same validation as the API; the error to show, or null. */
async function saveSettings(setup: EmbedSetup, affiliateId: number, wiseAccountId: string, values: PayoutSettingsValues, t: Translate): Promise<string | null> {
  const labels: Record<string, string> = {
    payoutMethod: t('embed.settings.method'),
    paypalEmail: t('embed.settings.paypal_email'),
    wiseDetails: t('embed.settings.wise_email'),
    'wiseDetails.email': t('embed.settings.wise_email'),
    paymentDetails: t('embed.settings.details'),
  }
  try {
    await setup.program.affiliates.update(affiliateId, {
      payoutMethod: values.payoutMethod === '' ? null : (values.payoutMethod as UpdateAffiliateInput['payoutMethod']),
      paypalEmail: values.paypalEmail === '' ? null : values.paypalEmail,
      wiseDetails: values.wiseEmail === '' ? null : { accountId: wiseAccountId, email: values.wiseEmail },
      paymentDetails: values.paymentDetails === '' ? null : values.paymentDetails,
    })
    return null
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    return error.describe((field) => labels[field] ?? field)
  }
}
