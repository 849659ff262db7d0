// GET <prefix>/-/incentive?referral=<code>[&locale=fr]: what a referred visitor gets, for the
// page's banner (docs/incentives.md). The snippet's other endpoints' steps: an allowed origin
// (CORS, the preflight), a publishable key, the visitor's rate limit. It answers the offer's
// text and terms and the affiliate's first name (unless the project turned that off), nothing
// else: no email, no id, no code beyond the one asked about.
import { REFERRAL } from '../core/affiliates/checkout.js'
import { isLocale, LOCALES } from '../core/model/i18n/locales.js'
import { publishableKeyAuthentication } from '../server/key-authentication.js'
import { pipeline } from '../server/pipeline.js'
import { allowedOrigin, reportLimit, type ReportCall } from './browser-reports.js'
import { json, type TrackingRequest, type TrackingResponse, type TrackingSetup } from './setup.js'

/** The answer's fields (snake case, as the API's): `text` null when no incentive applies. */
export interface IncentiveAnswer {
  text: string | null
  percent_off?: number | null
  amount_off?: string | null
  currency?: string | null
  duration?: 'once' | 'repeating' | 'forever'
  duration_in_months?: number | null
  via?: string | null
}

export function incentiveRead(setup: TrackingSetup, request: TrackingRequest): Promise<TrackingResponse> {
  const keyed = publishableKeyAuthentication<ReportCall, TrackingResponse>(setup.program.verifyApiKey, ({ corsHeaders }) =>
    json(401, { error: 'send a publishable key: Authorization: Bearer rgp_...' }, corsHeaders),
  )
  const run = pipeline<ReportCall, TrackingResponse>([allowedOrigin(setup, 'GET'), keyed, reportLimit(setup)], (call) => answer(setup, call))
  return run(Object.assign(Object.create(request) as TrackingRequest, { corsHeaders: {}, key: null }))
}

async function answer(setup: TrackingSetup, call: ReportCall): Promise<TrackingResponse> {
  const { corsHeaders, key } = call
  const mark = call.target.indexOf('?')
  const query = new URLSearchParams(mark === -1 ? '' : call.target.slice(mark))
  const unknown = [...query.keys()].find((name) => name !== 'referral' && name !== 'locale')
  if (unknown !== undefined) return json(400, { error: `unknown parameter "${unknown.slice(0, 40)}": only referral and locale are accepted` }, corsHeaders)
  const referral = query.get('referral')
  if (referral !== null && !REFERRAL.test(referral)) return json(400, { error: "referral: must be a referral code or the referral cookie's value" }, corsHeaders)
  const locale = query.get('locale')
  if (locale !== null && !isLocale(locale)) return json(400, { error: `locale: must be one of ${LOCALES.join(', ')}` }, corsHeaders)
  const offer = await setup.program.project(key!.projectId).checkout.incentive({ referral, locale, acceptLanguage: call.header('accept-language') })
  const headers = { ...corsHeaders, Vary: 'Origin, Accept-Language' }
  if (!offer) return json(200, { text: null } satisfies IncentiveAnswer, headers)
  const body: IncentiveAnswer = {
    text: offer.text,
    percent_off: offer.percentOff,
    amount_off: offer.amountOff,
    currency: offer.currency,
    duration: offer.duration,
    duration_in_months: offer.durationInMonths,
    via: offer.via,
  }
  return json(200, body, headers)
}
