// What a referred customer gets (docs/incentives.md): the incentive that applies to an
// affiliate's customers (its own, else its sub-program's, else the project's; each level whole,
// as commission rules are chosen) and the banner's words for it, in the visitor's language.
import { formatAmount, translator } from '../model/i18n/translate.js'
import type { Locale } from '../model/i18n/locales.js'
import { Currency } from '../model/money.js'
import type { CustomerIncentive, IncentiveSettings, ProjectSettings } from '../model/types.js'

export type { CustomerIncentive, IncentiveSettings, ProjectIncentiveSettings } from '../model/types.js'

/** Where the incentive came from: the affiliate's own, its sub-program's, the project's. */
export type IncentiveSource = 'affiliate' | 'sub_program' | 'project'

/** The incentive of an affiliate's referred customers, or null when none applies (`customer: null` at a level offers none). */
export function customerIncentiveFor(
  settings: ProjectSettings,
  affiliate: { partnerSlug: string | null; incentives: IncentiveSettings | null },
): { incentive: CustomerIncentive; source: IncentiveSource } | null {
  const levels: Array<[IncentiveSource, IncentiveSettings | null | undefined]> = [
    ['affiliate', affiliate.incentives],
    ['sub_program', affiliate.partnerSlug ? settings.subPrograms?.[affiliate.partnerSlug]?.incentives : undefined],
    ['project', settings.incentives],
  ]
  for (const [source, level] of levels) {
    if (level && level.customer !== undefined) return level.customer === null ? null : { incentive: level.customer, source }
  }
  return null
}

/** The first word of the affiliate's name, the one thing of it the banner shows; null without a name. */
export function displayNameOf(name: string | null): string | null {
  const first = name?.trim().split(/\s+/)[0]
  return first ? first.slice(0, 40) : null
}

/**
 * The banner's words: "20% off for 3 months via Ann", "$10.00 off your first payment". The
 * percentage and the amount are written as the locale writes them (20 %, 10,00 $).
 */
export function incentiveText(incentive: CustomerIncentive, options: { currency: string; locale: Locale; via: string | null }): string {
  const t = translator(options.locale)
  const discount =
    incentive.percentOff !== undefined
      ? new Intl.NumberFormat(options.locale, { style: 'percent', maximumFractionDigits: 2 }).format(incentive.percentOff / 100)
      : formatAmount(new Currency(options.currency).parse(incentive.amountOff, 'amountOff').minor, options.currency, options.locale)
  const duration = incentive.duration ?? 'once'
  const months = incentive.durationInMonths ?? 1
  const offer =
    duration === 'forever'
      ? t('incentive.customer.forever', { discount })
      : duration === 'repeating'
        ? t(months === 1 ? 'incentive.customer.one_month' : 'incentive.customer.months', { discount, months })
        : t('incentive.customer.once', { discount })
  return options.via === null ? offer : t('incentive.customer.via', { offer, name: options.via })
}
