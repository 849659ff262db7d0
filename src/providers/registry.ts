// The payment providers' registry: one line per provider, keyed by its name in the core's
// PROVIDER_NAMES (src/core/model/types.ts). The standalone server's config keys, its event routes and
// the build's entries derive from these two lists. Adding a provider: its folder
// src/providers/<name>/ (index.ts: its handler over providerHandler, i.e. { name, verify or decode, map }),
// its name in PROVIDER_NAMES, its line here (and its affiliate-kit/<name> export in
// package.json, which test/providers/providers-registry.test.ts checks).
import type { ProviderName } from '../core/model/types.js'
import type { ChargebeeConfig } from './chargebee/config.js'
import { API_KEYS, BASIC_AUTH_AND_API, SIGNED_AND_API, SIGNING_SECRET, TIMESTAMPED_SECRET, TIMESTAMPED_SECRET_AND_KEY, type ConfigKind } from './config-kinds.js'
import type { ProviderHandler, ProviderHandlerOptions } from './handler.js'
import type { RecurlyConfig } from './recurly/config.js'
import type { Secrets } from './signature.js'

/** The config of a provider that signs with a webhook secret. */
export interface SecretConfig {
  webhookSecret: Secrets
  toleranceSeconds?: number
  /** Stripe's secret API key, for affiliates' promotion codes (read by the server, not the handler). */
  secretKey?: string
}

/** The config of a provider that verifies with its API keys instead (Braintree). */
export interface ApiKeysConfig {
  merchantId: string
  publicKey: string
  privateKey: string
}

/**
 * What the server's config gives a provider's handler beside the program: the entries of its
 * kind, as the server's config schema (src/cli/config.ts) checked them; each handler reads its
 * own, so every factory takes them all.
 */
export type ProviderConfig = SecretConfig & ApiKeysConfig & ChargebeeConfig & RecurlyConfig

export interface RegisteredProvider {
  /** What its entry in the server's config holds (./config-kinds.ts). */
  config: ConfigKind
  /** Loads its handler factory (only the configured providers' modules are loaded). */
  load(): Promise<(options: ProviderHandlerOptions & ProviderConfig) => ProviderHandler>
}

export const PROVIDERS: { readonly [name in ProviderName]: RegisteredProvider } = {
  stripe: { config: TIMESTAMPED_SECRET_AND_KEY, load: async () => (await import('./stripe/index.js')).stripeHandler },
  paddle: { config: TIMESTAMPED_SECRET, load: async () => (await import('./paddle/index.js')).paddleHandler },
  'lemon-squeezy': { config: SIGNING_SECRET, load: async () => (await import('./lemon-squeezy/index.js')).lemonSqueezyHandler },
  polar: { config: TIMESTAMPED_SECRET, load: async () => (await import('./polar/index.js')).polarHandler },
  braintree: {
    config: API_KEYS,
    load: async () => {
      // The optional braintree package is asked for up front: without it the server stops at start, in one line.
      await (await import('./braintree/gateway.js')).requireBraintree()
      return (await import('./braintree/index.js')).braintreeHandler
    },
  },
  chargebee: { config: BASIC_AUTH_AND_API, load: async () => (await import('./chargebee/index.js')).chargebeeHandler },
  recurly: { config: SIGNED_AND_API, load: async () => (await import('./recurly/index.js')).recurlyHandler },
}

/** A provider's key in the server's config: its name in camelCase (lemon-squeezy: lemonSqueezy). */
export const providerConfigKey = (name: ProviderName): string => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
