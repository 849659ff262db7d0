// Project settings: defaults and validation (amounts must fit the currency's minor unit).
import { isDeepStrictEqual } from 'node:util'
import { Currency } from '../model/money.js'
import { projectSettingsInput, validate, type ProjectSettingsInput } from '../model/schemas.js'
import type { CommissionRule, CommissionSettings, IncentiveSettings, ProjectSettings, RecurringRule } from '../model/types.js'
import { fraudSettingsOf } from './fraud/settings.js'

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
  if (data.attribution) {
    settings.attribution = { model: data.attribution.model ?? 'first_click', windowDays: data.attribution.windowDays ?? DEFAULT_WINDOW_DAYS }
  }
  if (data.payouts) {
    const { requireTaxDetails, automatic, ...terms } = data.payouts
    settings.payouts = {
      ...(Object.values(terms).some((value) => value !== undefined)
        ? { minimumAmount: terms.minimumAmount ?? '0', termsDays: terms.termsDays ?? 0, schedule: { day: terms.schedule?.day ?? 1 }, requests: terms.requests ?? false }
        : {}),
      ...(requireTaxDetails !== undefined ? { requireTaxDetails } : {}),
      ...(automatic !== undefined ? { automatic } : {}),
    }
  }
  if (data.fraud) settings.fraud = fraudSettingsOf(data.fraud)
  if (data.incentives) settings.incentives = data.incentives as NonNullable<ProjectSettings['incentives']>
  const currency = new Currency(settings.currency)
  if (settings.fraud?.amountAbove) currency.parse(settings.fraud.amountAbove.amount, 'fraud.amountAbove.amount')
  if (settings.payouts?.minimumAmount !== undefined) currency.parse(settings.payouts.minimumAmount, 'payouts.minimumAmount', true)
  checkAmounts(settings.commission, currency, 'commission')
  for (const [slug, program] of Object.entries(settings.subPrograms ?? {})) {
    checkAmounts(program.commission, currency, `subPrograms.${slug}.commission`)
    checkIncentives(program.incentives, currency, `subPrograms.${slug}.incentives`)
  }
  checkIncentives(settings.incentives, currency, 'incentives')
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

/** An amount off must fit the currency's digits (a ValidationError naming it otherwise). */
export function checkIncentives(incentives: IncentiveSettings | null | undefined, currency: Currency, path: string): void {
  const amountOff = incentives?.customer?.amountOff
  if (amountOff !== undefined) currency.parse(amountOff, `${path}.customer.amountOff`)
}

/** Every fixed amount of the rules must fit the currency's digits (a ValidationError naming it otherwise). */
export function checkAmounts(commission: CommissionSettings, currency: Currency, path: string): void {
  checkRules(commission, currency, path)
  for (const [id, product] of Object.entries(commission.products ?? {})) {
    if (!('excluded' in product)) checkRules(product, currency, `${path}.products.${id}`)
  }
  for (const [index, tier] of (commission.tiers ?? []).entries()) {
    checkRules(tier, currency, `${path}.tiers.${index}`)
    if (tier.minRevenue !== undefined) currency.parse(tier.minRevenue, `${path}.tiers.${index}.minRevenue`)
  }
  for (const [index, bonus] of (commission.bonuses ?? []).entries()) {
    currency.parse(bonus.amount, `${path}.bonuses.${index}.amount`)
    if (bonus.revenue !== undefined) currency.parse(bonus.revenue, `${path}.bonuses.${index}.revenue`)
  }
}

function checkRules(rules: { purchase?: CommissionRule; signup?: { amount: string }; trial?: { amount: string }; recurring?: RecurringRule }, currency: Currency, path: string): void {
  if (rules.purchase?.type === 'fixed') currency.parse(rules.purchase.amount, `${path}.purchase.amount`)
  if (rules.signup) currency.parse(rules.signup.amount, `${path}.signup.amount`)
  if (rules.trial) currency.parse(rules.trial.amount, `${path}.trial.amount`)
  if (rules.recurring?.amount !== undefined) currency.parse(rules.recurring.amount, `${path}.recurring.amount`)
  for (const [index, stage] of (rules.recurring?.stages ?? []).entries()) {
    if (stage.amount !== undefined) currency.parse(stage.amount, `${path}.recurring.stages.${index}.amount`)
  }
}
