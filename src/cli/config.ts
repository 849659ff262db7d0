// The --config JSON file of `affiliate-kit serve` (docs/settings.md): validated before start;
// a wrong key or value stops the start with a message naming it.
import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { projectSettingsInput } from '../core/schemas.js'
import { createWebhookInput } from '../core/webhook-endpoints.js'
import { LOG_LEVELS } from '../ops/logger.js'
import { CliError } from './errors.js'

/** A webhook endpoint the server keeps in place: what webhooks.create takes, always active. */
const webhook = v.omit(createWebhookInput, ['active'])

const secrets = v.union(
  [v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))],
  'must be a secret or a list of secrets',
)
const tolerance = v.optional(v.pipe(v.number('must be a number'), v.minValue(1, 'must be at least 1')))
/** Payment providers whose webhooks the server receives at /api/v1/providers/<name>/events. */
const providers = v.strictObject({
  stripe: v.optional(v.strictObject({ webhookSecret: secrets, toleranceSeconds: tolerance })),
  paddle: v.optional(v.strictObject({ webhookSecret: secrets, toleranceSeconds: tolerance })),
  lemonSqueezy: v.optional(v.strictObject({ webhookSecret: secrets })),
})

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
  metrics: v.optional(v.boolean('must be true or false')),
  logLevel: v.optional(v.picklist(LOG_LEVELS, 'must be debug, info, warn or error')),
  logFormat: v.optional(v.picklist(['json', 'text'], 'must be json or text')),
  providers: v.optional(providers),
})
export type ServerConfig = v.InferOutput<typeof serverConfig>

export class ConfigError extends CliError {
  override name = 'ConfigError'
}

/** Reads and validates a config file; throws ConfigError naming the file and the key. */
export function loadConfig(path: string | undefined): ServerConfig {
  if (!path) return {}
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ConfigError(`config ${path}: ${(error as Error).message}`)
  }
  const result = v.safeParse(serverConfig, raw, { abortEarly: true })
  if (result.success) return result.output
  const issue = result.issues[0]
  const key = issue.path?.map((item) => String(item.key)).join('.') || '(root)'
  const message = issue.type === 'strict_object' ? `unknown field "${key}"` : `"${key}" ${issue.message}`
  throw new ConfigError(`config ${path}: ${message}`)
}

/** The project settings part of a server config. */
export function projectSettingsOf(config: ServerConfig) {
  const { webhooks: _webhooks, rateLimit: _rateLimit, shape: _shape, metrics: _metrics, logLevel: _logLevel, logFormat: _logFormat, providers: _providers, ...settings } = config
  return settings
}
