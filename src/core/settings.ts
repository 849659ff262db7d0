// Project settings: defaults and validation (amounts must fit the currency's minor unit).
import { isDeepStrictEqual } from 'node:util'
import { Currency } from './money.js'
import { projectSettingsInput, validate, type ProjectSettingsInput } from './schemas.js'
import type { CommissionRule, CommissionSettings, ProjectSettings, RecurringRule } from './types.js'

export const DEFAULT_SETTINGS: ProjectSettings = {
  currency: 'USD',
  holdPeriodDays: 0,
  commission: { purchase: { type: 'percentage', rate: 30 } },
}

/** Days a referral counts when `attribution` leaves windowDays out (the referral cookie's default lifetime). */
export const DEFAULT_WINDOW_DAYS = 60

/**
 * Validates settings and checks every amount against the currency. The result is the complete
 * settings of a project: an absent key takes its default, never a previously stored value (the
 * settings given at start, or to projects.updateSettings, replace the stored ones).
 */
export function normalizeSettings(input: ProjectSettingsInput = {}): ProjectSettings {
  const data = validate(projectSettingsInput, input)
  const settings: ProjectSettings = {
    currency: data.currency ?? DEFAULT_SETTINGS.currency,
    holdPeriodDays: data.holdPeriodDays ?? DEFAULT_SETTINGS.holdPeriodDays,
    commission: (data.commission as CommissionSettings | undefined) ?? DEFAULT_SETTINGS.commission,
  }
  if (data.multiTier) settings.multiTier = data.multiTier
  if (data.subPrograms) settings.subPrograms = data.subPrograms as NonNullable<ProjectSettings['subPrograms']>
  if (data.webhookRetryDelaysSeconds) settings.webhookRetryDelaysSeconds = data.webhookRetryDelaysSeconds
  if (data.allowPrivateNetworks !== undefined) settings.allowPrivateNetworks = data.allowPrivateNetworks
  if (data.timeZone !== undefined) settings.timeZone = data.timeZone
  if (data.payouts) settings.payouts = data.payouts
  if (data.attribution) {
    settings.attribution = { model: data.attribution.model ?? 'first_click', windowDays: data.attribution.windowDays ?? DEFAULT_WINDOW_DAYS }
  }
  const currency = new Currency(settings.currency)
  checkAmounts(settings.commission, currency, 'commission')
  for (const [slug, program] of Object.entries(settings.subPrograms ?? {})) {
    checkAmounts(program.commission, currency, `subPrograms.${slug}.commission`)
  }
  return settings
}

/** A setting that differs between two complete settings: its key and both values as JSON ("unset" when absent). */
export interface SettingChange {
  key: string
  from: string
  to: string
}

export function settingsChanges(before: ProjectSettings, after: ProjectSettings): SettingChange[] {
  const shown = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value))
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])] as Array<keyof ProjectSettings>
  return keys.filter((key) => !isDeepStrictEqual(before[key], after[key])).map((key) => ({ key, from: shown(before[key]), to: shown(after[key]) }))
}

/** Every fixed amount of the rules must fit the currency's digits (a ValidationError naming it otherwise). */
export function checkAmounts(commission: CommissionSettings, currency: Currency, path: string): void {
  checkRules(commission, currency, path)
  for (const [id, product] of Object.entries(commission.products ?? {})) {
    if (!('excluded' in product)) checkRules(product, currency, `${path}.products.${id}`)
  }
}

function checkRules(rules: { purchase?: CommissionRule; signup?: { amount: string }; recurring?: RecurringRule }, currency: Currency, path: string): void {
  if (rules.purchase?.type === 'fixed') currency.parse(rules.purchase.amount, `${path}.purchase.amount`)
  if (rules.signup) currency.parse(rules.signup.amount, `${path}.signup.amount`)
  if (rules.recurring?.amount !== undefined) currency.parse(rules.recurring.amount, `${path}.recurring.amount`)
  for (const [index, stage] of (rules.recurring?.stages ?? []).entries()) {
    if (stage.amount !== undefined) currency.parse(stage.amount, `${path}.recurring.stages.${index}.amount`)
  }
}
