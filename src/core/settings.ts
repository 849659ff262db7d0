// Project settings: defaults and validation (amounts must fit the currency's minor unit).
import { parseMoney, minorDigits } from './money.js'
import { projectSettingsInput, validate, type ProjectSettingsInput } from './schemas.js'
import type { CommissionSettings, ProjectSettings } from './types.js'

export const DEFAULT_SETTINGS: ProjectSettings = {
  currency: 'USD',
  holdPeriodDays: 0,
  commission: { purchase: { type: 'percentage', rate: 30 } },
}

/** Validates settings, fills defaults, and checks every amount against the currency. */
export function normalizeSettings(input: ProjectSettingsInput = {}, base: ProjectSettings = DEFAULT_SETTINGS): ProjectSettings {
  const data = validate(projectSettingsInput, input)
  const settings: ProjectSettings = {
    currency: data.currency ?? base.currency,
    holdPeriodDays: data.holdPeriodDays ?? base.holdPeriodDays,
    commission: (data.commission as CommissionSettings | undefined) ?? base.commission,
  }
  const multiTier = data.multiTier ?? base.multiTier
  if (multiTier) settings.multiTier = multiTier
  const subPrograms = (data.subPrograms as ProjectSettings['subPrograms']) ?? base.subPrograms
  if (subPrograms) settings.subPrograms = subPrograms
  const delays = data.webhookRetryDelaysSeconds ?? base.webhookRetryDelaysSeconds
  if (delays) settings.webhookRetryDelaysSeconds = delays
  const allowPrivate = data.allowPrivateNetworks ?? base.allowPrivateNetworks
  if (allowPrivate !== undefined) settings.allowPrivateNetworks = allowPrivate
  const digits = minorDigits(settings.currency)
  checkAmounts(settings.commission, digits, 'commission')
  for (const [slug, program] of Object.entries(settings.subPrograms ?? {})) {
    checkAmounts(program.commission, digits, `subPrograms.${slug}.commission`)
  }
  return settings
}

function checkAmounts(commission: CommissionSettings, digits: number, path: string): void {
  if (commission.purchase.type === 'fixed') parseMoney(commission.purchase.amount, digits, `${path}.purchase.amount`)
  if (commission.signup) parseMoney(commission.signup.amount, digits, `${path}.signup.amount`)
  if (commission.recurring?.amount !== undefined) parseMoney(commission.recurring.amount, digits, `${path}.recurring.amount`)
}
