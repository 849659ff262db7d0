// What a provider's entry in the server's config holds (docs/providers.md), by the way the
// provider authenticates its webhooks: a signing secret (with a timestamp tolerance when its
// signatures carry one), API keys (Braintree), HTTP Basic credentials with an API key to fetch
// each event back (Chargebee), or a signing secret with an API key to read back what each
// notification names (Recurly). Each kind is its schema and the example the 404 of an
// unconfigured provider shows.
import * as v from 'valibot'

const secrets = v.union(
  [v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))],
  'must be a secret or a list of secrets',
)
const tolerance = v.optional(v.pipe(v.number('must be a number'), v.minValue(1, 'must be at least 1')))
const nonEmpty = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'))

export interface ConfigKind {
  schema: v.GenericSchema
  example: string
}

export const SIGNING_SECRET: ConfigKind = { schema: v.strictObject({ webhookSecret: secrets }), example: '{ "webhookSecret": "..." }' }
export const TIMESTAMPED_SECRET: ConfigKind = { schema: v.strictObject({ webhookSecret: secrets, toleranceSeconds: tolerance }), example: '{ "webhookSecret": "..." }' }
/**
 * A timestamped signing secret, and optionally the secret API key the program creates affiliates'
 * promotion codes with (Stripe; docs/incentives.md "Promotion codes") and the API's origin.
 */
export const TIMESTAMPED_SECRET_AND_KEY: ConfigKind = {
  schema: v.strictObject({
    webhookSecret: secrets,
    toleranceSeconds: tolerance,
    secretKey: v.optional(v.pipe(nonEmpty, v.maxLength(500, 'must be at most 500 characters'))),
    apiBase: v.optional(v.pipe(v.string('must be a string'), v.url('must be a URL'), v.regex(/^https?:\/\/[^/]+\/?$/i, 'must be an origin such as https://api.stripe.com'))),
  }),
  example: '{ "webhookSecret": "...", "secretKey": "sk_..." }',
}
export const API_KEYS: ConfigKind = {
  schema: v.strictObject({ merchantId: nonEmpty, publicKey: nonEmpty, privateKey: nonEmpty }),
  example: '{ "merchantId": "...", "publicKey": "...", "privateKey": "..." }',
}
export const BASIC_AUTH_AND_API: ConfigKind = {
  schema: v.pipe(
    v.strictObject({
      site: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be the site name of <site>.chargebee.com'))),
      apiBase: v.optional(v.pipe(v.string('must be a string'), v.url('must be a URL'), v.regex(/^https?:\/\/[^/]+\/?$/i, 'must be an origin such as https://acme.chargebee.com'))),
      apiKey: nonEmpty,
      webhookUsername: nonEmpty,
      webhookPassword: nonEmpty,
    }),
    v.check((entry) => entry.site !== undefined || entry.apiBase !== undefined, 'needs "site" (acme of acme.chargebee.com) or "apiBase"'),
  ),
  example: '{ "site": "...", "apiKey": "...", "webhookUsername": "...", "webhookPassword": "..." }',
}
export const SIGNED_AND_API: ConfigKind = {
  schema: v.strictObject({
    webhookSecret: secrets,
    toleranceSeconds: tolerance,
    apiKey: nonEmpty,
    region: v.optional(v.picklist(['us', 'eu'], 'must be "us" or "eu"')),
    apiBase: v.optional(v.pipe(v.string('must be a string'), v.url('must be a URL'), v.regex(/^https?:\/\/[^/]+\/?$/i, 'must be an origin such as https://v3.recurly.com'))),
  }),
  example: '{ "webhookSecret": "...", "apiKey": "..." }',
}
