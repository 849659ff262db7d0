// The --config JSON file of `affiliate-kit serve` (docs/settings.md): validated before start;
// a wrong key or value stops the start with a message naming it.
import { readFileSync } from 'node:fs'
import { LOCALES } from '../core/model/i18n/locales.js'
import { resolve } from 'node:path'
import * as v from 'valibot'
import { projectSettingsInput, signupMode, strictObjectProblem } from '../core/model/schemas.js'
import { PROVIDER_NAMES, type ProviderName } from '../core/model/types.js'
import { createWebhookInput } from '../core/project/webhook-endpoints.js'
import { LOG_LEVELS } from '../ops/logger.js'
import { providerConfigKey, PROVIDERS } from '../providers/registry.js'
import { CliError } from './errors.js'
import { exchangeRateTable } from './exchange-rates.js'

/** A webhook endpoint the server keeps in place: what webhooks.create takes, always active. */
const webhook = v.omit(createWebhookInput, ['active'])

/** Payment providers whose webhooks the server receives at /api/v1/providers/<name>/events: one key per registered provider. */
const providerOptions = (name: ProviderName) => v.optional(PROVIDERS[name].config.schema)
const providers = v.strictObject(Object.fromEntries(PROVIDER_NAMES.map((name) => [providerConfigKey(name), providerOptions(name)])) as Record<string, ReturnType<typeof providerOptions>>)

const POSITIVE_OR_FALSE = 'must be a positive integer or false'
/** Referral links and browser reports (docs/tracking.md), served beside the API. */
const tracking = v.strictObject({
  landingUrl: v.pipe(v.string('must be a string'), v.url('must be a URL'), v.regex(/^https?:/i, 'must be an http or https URL')),
  allowedOrigins: v.optional(v.array(v.pipe(v.string('must be a string'), v.url('must be an origin such as https://shop.example'), v.regex(/^https?:\/\/[^/]+\/?$/i, 'must be an origin such as https://shop.example')))),
  cookieDays: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(3650, 'must be at most 3650'))),
  cookieName: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or -'))),
  queryParams: v.optional(v.pipe(v.array(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a query parameter name'))), v.minLength(1, 'must name at least one parameter'))),
  prefix: v.optional(v.pipe(v.string('must be a string'), v.regex(/^\/[a-z0-9_-]+$/i, 'must be a path such as /r'))),
  trustProxy: v.optional(v.boolean('must be true or false')),
  /** Origin the referral links are reached at (for the portal's link); @default portal.publicUrl */
  publicUrl: v.optional(v.pipe(v.string('must be a string'), v.url('must be an origin such as https://go.example'), v.regex(/^https?:\/\/[^/]+\/?$/i, 'must be an origin such as https://go.example'))),
  /** Short domains: host names that serve `/<key>` of affiliates' links (docs/links.md "Short domains"). */
  linkDomains: v.optional(
    v.array(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i, 'must be a host name such as go.example (no scheme, port or path)'),
      ),
      'must be a list of host names',
    ),
  ),
  visitorsPerAddress: v.optional(
    v.union([v.literal(false), v.pipe(v.number(), v.safeInteger(POSITIVE_OR_FALSE), v.minValue(1, POSITIVE_OR_FALSE))], POSITIVE_OR_FALSE),
  ),
  /** When counted clicks are written (docs/analytics.md "The click path"). */
  clicks: v.optional(
    v.strictObject({
      flushMilliseconds: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(0, 'must be at least 0'), v.maxValue(60_000, 'must be at most 60000'))),
      maxBatch: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(10_000, 'must be at most 10000'))),
      maxBuffered: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(10_000_000, 'must be at most 10000000'))),
    }),
  ),
  /** Seconds a link's lookup is kept in memory. @default 10 */
  linkCacheSeconds: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(0, 'must be at least 0'), v.maxValue(3600, 'must be at most 3600'))),
  /** Where a click's country comes from (docs/analytics.md "Country"). */
  country: v.optional(
    v.strictObject({
      header: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a header name such as CF-IPCountry'))),
      database: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must be the path of a .mmdb file'))),
    }),
  ),
})

/** A sign-in limit (docs/limits.md "Sign-in"): so many per window, or false for none. */
const signInLimit = v.optional(
  v.union(
    [
      v.literal(false),
      v.strictObject({
        limit: v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1')),
        windowSeconds: v.pipe(v.number('must be a number'), v.minValue(1, 'must be at least 1')),
      }),
    ],
    'must be false or an object with "limit" and "windowSeconds"',
  ),
)
const seconds = v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be a whole number of seconds'), v.minValue(1, 'must be at least 1')))
const cssValue = v.pipe(v.string('must be a string'), v.maxLength(200, 'must be at most 200 characters'))
/** The affiliate portal (docs/portal.md "The standalone server"); theme values are checked again when it starts. */
const portal = v.strictObject({
  enabled: v.boolean('must be true or false'),
  path: v.optional(v.pipe(v.string('must be a string'), v.regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /portal'))),
  publicUrl: v.optional(v.pipe(v.string('must be a string'), v.url('must be a URL'))),
  secureCookies: v.optional(v.boolean('must be true or false')),
  idleTimeoutSeconds: seconds,
  absoluteTimeoutSeconds: seconds,
  signInLinkTtlSeconds: seconds,
  /** Records portal.sign_in_requested for the "email me a link" form (mailed with `email`); needs publicUrl. @default true with `email` and publicUrl */
  emailSignIn: v.optional(v.boolean('must be true or false')),
  /** The language of pages and mails for affiliates who chose none and whose browser asks for none we have. */
  locale: v.optional(v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`)),
  limits: v.optional(v.strictObject({ emailPerAddress: signInLimit, emailPerClient: signInLimit, signInPerClient: signInLimit, applyPerClient: signInLimit, applyPerEmail: signInLimit, embedPerClient: signInLimit })),
  /** The embedded dashboard <path>/embed and the origins that may frame it (docs/embed.md); checked again when the portal starts. */
  embed: v.optional(v.strictObject({ allowedOrigins: v.pipe(v.array(v.pipe(v.string('must be a string'), v.url('must be a URL')), 'must be a list of origins'), v.minLength(1, 'must name at least one origin')) })),
  /** The application page <path>/apply (docs/onboarding.md); checked again when the portal starts. */
  application: v.optional(
    v.strictObject({
      signup: v.optional(signupMode),
      fields: v.optional(
        v.array(
          v.strictObject({
            name: v.string('must be a string'),
            label: v.string('must be a string'),
            type: v.picklist(['text', 'url', 'select', 'checkbox'], 'must be text, url, select or checkbox'),
            required: v.optional(v.boolean('must be true or false')),
            options: v.optional(v.array(v.string('must be a string'))),
          }),
          'must be a list of fields',
        ),
      ),
      termsUrl: v.optional(v.pipe(v.string('must be a string'), v.url('must be a URL'))),
      minSecondsToSubmit: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must not be negative'), v.maxValue(3600, 'must be at most 3600'))),
    }),
  ),
  /** Count sign-in clients by the last X-Forwarded-For entry (a reverse proxy in front). */
  trustProxy: v.optional(v.boolean('must be true or false')),
  /** With tracking on: the /r/ link on the tracking host, or the landing URL with ?ref= (docs/portal.md). */
  referralLink: v.optional(v.picklist(['tracking', 'landing'], 'must be tracking or landing')),
  theme: v.optional(
    v.strictObject({
      title: v.optional(cssValue),
      logoUrl: v.optional(cssValue),
      font: v.optional(cssValue),
      colors: v.optional(v.record(v.picklist(['primary', 'onPrimary', 'background', 'surface', 'text', 'muted', 'border', 'danger'], 'must be a theme colour name'), cssValue)),
    }),
  ),
})

/** Mail to affiliates over SMTP (docs/email.md). */
const email = v.strictObject({
  smtp: v.pipe(v.string('must be a string'), v.regex(/^smtps?:\/\/[^\s]+$/, 'must be an SMTP URL such as smtp://user:password@smtp.example.com:587')),
  from: v.pipe(v.string('must be a string'), v.regex(/^[^\r\n]{0,200}@[^\r\n]{1,200}$/, 'must be an address such as "Acme Partners <partners@acme.com>"')),
  replyTo: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[^\r\n]{0,200}@[^\r\n]{1,200}$/, 'must be an email address'))),
  /** Signs the one-click unsubscribe links; the same on every server. @default derived from `smtp` */
  secret: v.optional(v.pipe(v.string('must be a string'), v.minLength(32, 'must be at least 32 characters'))),
})

/** The admin console (docs/admin.md "The standalone server"). */
const admin = v.strictObject({
  enabled: v.boolean('must be true or false'),
  path: v.optional(v.pipe(v.string('must be a string'), v.regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /admin'))),
  secureCookies: v.optional(v.boolean('must be true or false')),
  idleTimeoutSeconds: seconds,
  absoluteTimeoutSeconds: seconds,
  limits: v.optional(v.strictObject({ signInPerClient: signInLimit })),
  /** Count sign-in clients by the last X-Forwarded-For entry (a reverse proxy in front). */
  trustProxy: v.optional(v.boolean('must be true or false')),
})

const secretText = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(500, 'must be at most 500 characters'))
const baseUrl = v.optional(v.pipe(v.string('must be a string'), v.regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'must be an http(s) URL such as https://api-m.paypal.com')))

/**
 * Automatic payouts run by the server (docs/payouts.md "Running it"): each provider's credentials;
 * the server syncs every processing payout with them on a schedule, and serves PayPal's item
 * webhooks at /api/v1/payouts/paypal/webhooks when `paypal.webhookId` is set.
 */
const payoutProviders = v.strictObject({
  paypal: v.optional(
    v.strictObject({
      clientId: secretText,
      clientSecret: secretText,
      /** @default 'https://api-m.paypal.com' (sandbox: https://api-m.sandbox.paypal.com) */
      baseUrl,
      webhookId: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9]{1,100}$/, 'must be the webhook id from PayPal\'s dashboard'))),
    }),
  ),
  stripe: v.optional(v.strictObject({ secretKey: secretText, baseUrl })),
  /** @default 300 */
  syncIntervalSeconds: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be a whole number of seconds'), v.minValue(1, 'must be at least 1'), v.maxValue(86_400, 'must be at most 86400'))),
  /** Runs each period's payout run on payouts.schedule.day (docs/payouts.md "Payout runs"). @default true */
  scheduledRuns: v.optional(v.boolean('must be a boolean')),
})

const days = v.pipe(v.number('must be a number'), v.safeInteger('must be a whole number of days'), v.minValue(1, 'must be at least 1'), v.maxValue(3650, 'must be at most 3650'))

export const serverConfig = v.strictObject({
  ...projectSettingsInput.entries,
  webhooks: v.optional(v.array(webhook)),
  rateLimit: v.optional(
    v.strictObject({
      limit: v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1')),
      windowSeconds: v.pipe(v.number('must be a number'), v.minValue(1, 'must be at least 1')),
    }),
  ),
  shape: v.optional(v.picklist(['primary', 'alternative'], 'must be primary or alternative')),
  /** How long what grows without bound is kept (docs/operations.md "Retention"). */
  retention: v.optional(
    v.strictObject({
      deliveryAttemptsDays: v.optional(days),
      visitorMarksDays: v.optional(days),
    }),
  ),
  /** The raw link clicks (docs/analytics.md "Retention and partitions"). */
  clicks: v.optional(
    v.strictObject({
      /** Whole months of raw clicks kept before the current month; older months are dropped (their rollups stay). @default kept forever */
      retentionMonths: v.optional(v.pipe(v.number('must be a number'), v.safeInteger('must be a whole number of months'), v.minValue(1, 'must be at least 1'), v.maxValue(1200, 'must be at most 1200'))),
    }),
  ),
  metrics: v.optional(v.boolean('must be true or false')),
  logLevel: v.optional(v.picklist(LOG_LEVELS, 'must be debug, info, warn or error')),
  logFormat: v.optional(v.picklist(['json', 'text'], 'must be json or text')),
  providers: v.optional(providers),
  payoutProviders: v.optional(payoutProviders),
  tracking: v.optional(tracking),
  portal: v.optional(portal),
  admin: v.optional(admin),
  email: v.optional(email),
  /** Fixed rates for payments in other currencies than the project's: { "EUR->USD": "1.0825" }. */
  exchangeRates: v.optional(exchangeRateTable),
})
export type ServerConfig = v.InferOutput<typeof serverConfig>

export class ConfigError extends CliError {
  override name = 'ConfigError'
}

/** Reads and validates a config file; throws ConfigError naming the file and the key. */
export function loadConfig(path: string | undefined): ServerConfig {
  if (!path) return {}
  let text: string
  let raw: unknown
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigError(
        `config file ${resolve(path)} does not exist: create it (copy affiliate.config.example.json from the affiliate-kit package; every key is in its README, "Configuration") or leave out --config`,
      )
    }
    throw new ConfigError(`config ${path}: ${(error as Error).message}`)
  }
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`config ${path}: not valid JSON: ${syntaxError(text, (error as Error).message)}`)
  }
  const result = v.safeParse(serverConfig, raw, { abortEarly: true })
  if (!result.success) throw new ConfigError(`config ${path}: ${issueText(result.issues[0])}`)
  const clash = mountClash(result.output) ?? referralLinkProblem(result.output)
  if (clash) throw new ConfigError(`config ${path}: ${clash}`)
  const { portal } = result.output
  if (portal?.enabled && portal.emailSignIn && !portal.publicUrl) {
    throw new ConfigError(`config ${path}: "portal.publicUrl" is required with "portal.emailSignIn": emailed sign-in links must point at your site, never at the host a request names`)
  }
  return result.output
}

/** What the server answers itself: the API (the providers' endpoints are under it), health checks and metrics. */
const SERVER_PATHS = ['/api', '/healthz', '/readyz', '/metrics']
const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`)

/**
 * Tracking, the portal and the admin console are answered in front of the API: a path of theirs
 * at or around another's would take its requests (a tracking prefix of /api, every webhook).
 */
function mountClash(config: ServerConfig): string | null {
  const mounts: Array<[string, string]> = []
  if (config.tracking) mounts.push(['tracking.prefix', config.tracking.prefix ?? '/r'])
  if (config.portal?.enabled) mounts.push(['portal.path', config.portal.path ?? '/portal'])
  if (config.admin?.enabled) mounts.push(['admin.path', config.admin.path ?? '/admin'])
  const taken: Array<[string, string]> = SERVER_PATHS.map((base) => [base, base])
  for (const [key, path] of mounts) {
    const under = taken.find(([, base]) => within(path, base))
    if (under) return `"${key}" must not be ${under[0]} or under it`
    const over = taken.find(([, base]) => within(base, path))
    if (over) return `"${key}" must not contain ${over[0]}`
    taken.push([`${path} (${key})`, path])
  }
  return null
}

/** The portal's referral link is built from configured URLs only (cli/referral-link.ts). */
function referralLinkProblem({ portal, tracking }: ServerConfig): string | null {
  if (!portal?.referralLink) return null
  if (!tracking) return '"portal.referralLink" needs "tracking": the link points at referral links or at its landingUrl'
  if (portal.referralLink === 'tracking' && !(tracking.publicUrl ?? portal.publicUrl)) {
    return '"portal.referralLink" "tracking" needs the public origin of the links: set "tracking.publicUrl" or "portal.publicUrl"'
  }
  return null
}

/**
 * JSON.parse's complaint with the line and column it is about. For an unexpected token V8 quotes
 * the file's text around it (up to 10 characters either side, `...` where it cuts) instead of its
 * position: that text may be a secret, so it is located and never repeated.
 */
function syntaxError(text: string, message: string): string {
  const at = /^(.*) in JSON at position (\d+)/.exec(message)
  if (at) return `${at[1]} ${lineAndColumn(text, Number(at[2]))}`
  const quoted = /^Unexpected token '(.+?)', (\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON$/.exec(message)
  if (quoted) {
    const [, token = '', cut, excerpt = ''] = quoted
    return `unexpected character ${lineAndColumn(text, text.indexOf(excerpt) + (cut ? 10 : excerpt.indexOf(token)))}`
  }
  return message.includes('"') ? 'unexpected text' : message
}

function lineAndColumn(text: string, position: number): string {
  const lines = text.slice(0, position).split('\n')
  return `at line ${lines.length}, column ${lines.at(-1)!.length + 1}`
}

/** What is wrong at the issue's key. */
function issueText(issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.map((item) => String(item.key)).join('.') || '(root)'
  const problem = strictObjectProblem(issue)
  if (problem === 'unknown') return `unknown field "${key}"`
  if (problem === 'not an object') return `"${key}" must be an object`
  if (problem === 'required') return `"${key}" is required`
  return `"${key}" ${issue.message}`
}

/** The project settings part of a server config. */
export function projectSettingsOf(config: ServerConfig) {
  const { webhooks: _webhooks, rateLimit: _rateLimit, retention: _retention, clicks: _clicks, shape: _shape, metrics: _metrics, logLevel: _logLevel, logFormat: _logFormat, providers: _providers, payoutProviders: _payoutProviders, tracking: _tracking, portal: _portal, admin: _admin, email: _email, exchangeRates: _exchangeRates, ...settings } = config
  return settings
}
