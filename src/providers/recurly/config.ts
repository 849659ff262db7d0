// What the Recurly handler is given (docs/providers.md "Recurly"): the webhook endpoint's secret
// key (it signs each JSON notification), and a private API key to fetch back the invoice or
// transaction a notification names from Recurly's API v3.
import type { Secrets } from '../signature.js'

export interface RecurlyConfig {
  /** The endpoint's secret key (Integrations → Webhooks), or several while one is being regenerated. */
  webhookSecret: Secrets
  /** How far the recurly-signature timestamp may be from now. @default 300 */
  toleranceSeconds?: number
  /** A private API key of the site: it reads invoices, transactions and accounts back. */
  apiKey: string
  /** The site's data region: `us` (https://v3.recurly.com) or `eu` (https://v3.eu.recurly.com). @default 'us' */
  region?: 'us' | 'eu'
  /** The API's origin, instead of the region's (a proxy, a test server). */
  apiBase?: string
}

export const RECURLY_API_HOSTS = { us: 'https://v3.recurly.com', eu: 'https://v3.eu.recurly.com' } as const
