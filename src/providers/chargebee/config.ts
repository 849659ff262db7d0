// What the Chargebee handler is given (docs/providers.md "Chargebee"): the webhook's HTTP Basic
// credentials, and the site and a read-only API key to fetch each event back.

export interface ChargebeeConfig {
  /** The site: `acme` of acme.chargebee.com (acme-test for the test site). */
  site?: string
  /** The API's origin, instead of the site's (a proxy, a test server). @default `https://<site>.chargebee.com` */
  apiBase?: string
  /** A read-only API key of the site: it reads the events back. */
  apiKey: string
  /** The user name and password set on the webhook in Chargebee (Settings → Webhooks → Protect webhook URL with basic authentication). */
  webhookUsername: string
  webhookPassword: string
}
