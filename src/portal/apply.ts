// GET and POST of the application page (docs/onboarding.md): the mode of the page (the portal's
// own, or the sub-program's), then the bot defences in order (per-client limit, honeypot, signed
// time-to-submit floor, the host's verifyApplication), the answers, the per-email limit, and the
// program's applications.apply. The answer never says whether the email had an affiliate.
import type { Clock } from '../core/model/clock.js'
import { ValidationError } from '../core/model/errors.js'
import { localeFromAcceptLanguage, type Locale } from '../core/model/i18n/locales.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { SignupMode } from '../core/model/types.js'
import { clientAddress, type ClientInfo } from '../web/client-address.js'
import type { Html } from '../web/html.js'
import type { FormClock } from '../web/form-clock.js'
import { overClientLimit, type SubjectLimit } from '../web/sign-in-limits.js'
import { FORM_MAX_AGE_MS, type ApplicationSubmission, type ResolvedApplication } from './application-options.js'
import { alreadyAppliedPage, appliedPage, applyPage, readApplication, TRAP_NAME, type ApplicationErrors, type ApplicationValues } from './pages/apply.js'
import type { PortalPaths } from './paths.js'
import type { PortalProgram } from './program.js'

/** What the application page reads of the portal's setup (portal.ts's PortalSetup, which has it all). */
export interface ApplicationSetup {
  program: Pick<PortalProgram, 'applications'>
  options: {
    trustProxy?: boolean
    verifyApplication?: (submission: ApplicationSubmission) => boolean | Promise<boolean>
  }
  clock: Clock
  paths: PortalPaths
  limits: { applyPerClient: SubjectLimit | null; applyPerEmail: SubjectLimit | null }
  application: ResolvedApplication
  formClock: FormClock
}

/** What the signed-out pages of the table get from the portal. */
export interface PublicRequest {
  setup: ApplicationSetup
  request: Request
  url: URL
  client: ClientInfo | undefined
  /** The visitor's language: Accept-Language, else the portal's `locale` (docs/email.md "Languages"). */
  locale: Locale
  /** The catalogue of `locale`. */
  t: Translate
  /** The CSRF token of the browser's pre-session cookie, and the cookie to set when it had none. */
  csrf: string
  /** Whether the posted form carries `csrf`. */
  csrfMatches(form: URLSearchParams): boolean
  /** A page in the portal's frame (setting the pre-session cookie when needed). */
  page(title: string, body: Html, status: number, headers?: Record<string, string>): Response
  /** Starts a portal session for the affiliate and sends it to the overview. */
  signIn(affiliateId: number): Promise<Response>
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

/** The page's mode: the portal's own, the sub-program's, or `closed` for a slug that names none. */
async function modeOf({ setup }: PublicRequest, slug: string | null): Promise<SignupMode> {
  if (slug === null) return setup.application.signup
  if (!SLUG.test(slug)) return 'closed'
  return (await setup.program.applications.signupOf(slug)) ?? 'closed'
}

async function form(context: PublicRequest, slug: string | null, status: number, values?: ApplicationValues, errors?: ApplicationErrors, problem: string | null = null): Promise<Response> {
  const { setup, t } = context
  const action = slug === null ? setup.paths.apply : setup.paths.applyGroup(slug)
  const started = await setup.formClock.stamp(setup.clock.now())
  const body = applyPage({ action, csrf: context.csrf, started, application: setup.application, group: slug, t }, values, errors, problem)
  return context.page(t('apply.title'), body, status)
}

/** GET: the form, or 404 for a closed page. */
export async function applicationForm(context: PublicRequest, slug: string | null): Promise<Response | null> {
  if ((await modeOf(context, slug)) === 'closed') return null
  return form(context, slug, 200)
}

/** POST: refused with the form again, or answered with the same page for a new or known email. */
export async function submitApplication(context: PublicRequest, posted: URLSearchParams, slug: string | null): Promise<Response | null> {
  const { setup, request, client, t } = context
  const mode = await modeOf(context, slug)
  if (mode === 'closed') return null
  const now = setup.clock.now()
  const address = clientAddress(request, client, setup.options.trustProxy === true)
  const limited = await overClientLimit(setup.limits.applyPerClient, address, now, () => form(context, slug, 429, undefined, undefined, t('apply.too_many')))
  if (limited) return limited
  if (!context.csrfMatches(posted)) return form(context, slug, 403, undefined, undefined, t('apply.expired'))
  const thanks = () => context.page(t('apply.thanks_title'), appliedPage(t), 200)
  // A person never sees the trap, so it comes back present and empty; a bot is thanked and forgotten.
  if (posted.get(TRAP_NAME) !== '') return thanks()
  const { values, errors } = readApplication(posted, setup.application, t)
  const stamp = await setup.formClock.check(posted.get('started'), now, FORM_MAX_AGE_MS)
  if (!stamp.ok) return form(context, slug, 400, values, {}, t('apply.expired'))
  if (stamp.ageMs < setup.application.minMsToSubmit) return form(context, slug, 400, values, {}, t('apply.too_fast'))
  if (Object.keys(errors).length > 0) return form(context, slug, 400, values, errors)
  const verify = setup.options.verifyApplication
  if (verify && !(await verify({ email: values.email, name: values.name, form: posted, clientAddress: address }))) {
    return form(context, slug, 400, values, {}, t('apply.not_verified'))
  }
  // An address over its limit is answered like any other: the page never says what happened.
  const perEmail = setup.limits.applyPerEmail
  if (perEmail && !(await perEmail(values.email.toLowerCase(), now)).allowed) return thanks()
  let result
  try {
    result = await setup.program.applications.apply({
      email: values.email,
      name: values.name,
      website: values.website,
      promotion: values.promotion,
      fields: values.fields,
      partnerSlug: slug,
      termsAccepted: setup.application.termsUrl !== null && values.terms,
      signup: mode,
      // The browser's language, when it names one we have, becomes the affiliate's (docs/email.md "Languages").
      locale: localeFromAcceptLanguage(request.headers.get('accept-language')),
    })
  } catch (error) {
    if (error instanceof ValidationError && error.field === 'email') return form(context, slug, 400, values, { email: t('apply.invalid_email') })
    throw error
  }
  if (mode === 'review') return thanks()
  if (result.created) return context.signIn(result.affiliate.id)
  return context.page(t('apply.exists_title'), alreadyAppliedPage(setup.paths.signIn, t), 200)
}
