// What every use-case of one project needs: storage, clock, FX and the project's settings.
import { dayFormatter } from '../model/calendar.js'
import type { Clock } from '../model/clock.js'
import type { FraudCheck } from './fraud/check.js'
import { NoExchangeRateError } from '../model/errors.js'
import { Currency, parseDecimal, type Decimal, type Money } from '../model/money.js'
import type { TransactionalStore } from '../ports/storage.js'
import type { Project } from '../model/types.js'
import { ONE } from './commission.js'
import type { TaxIdCipher } from '../model/tax-id-cipher.js'
import type { PromotionCodeIssuer } from '../ports/promotion-codes.js'
import { linkSettings, type LinkSettings } from './link-settings.js'

/**
 * Exchange rate from one currency to another at a moment: how many units of `to` one unit of
 * `from` buys. Return null/undefined when unknown. May be async.
 */
export type ExchangeRates = (
  from: string,
  to: string,
  at: Date,
) => number | string | null | undefined | Promise<number | string | null | undefined>

export interface ProjectContext {
  storage: TransactionalStore
  clock: Clock
  /** Encrypts and decrypts tax ids (program option taxIdKeys); null when no key is configured. */
  taxIds: TaxIdCipher | null
  /** The program's own fraud check (docs/fraud.md), when it has one. */
  fraudCheck: FraudCheck | undefined
  /** Creates affiliates' promotion codes at Stripe (program option promotionCodes); null without one. */
  promotionCodes: PromotionCodeIssuer | null
  /** Where links are reached and may send visitors (program option links, docs/links.md). */
  links: LinkSettings
  projectId: string
  project(): Promise<Project>
  /** Rate from -> to; 1 when equal; throws a 400 naming the pair when unknown. */
  fxRate(from: string, to: string, field: string): Promise<Decimal>
  /** Like fxRate but null instead of an error (for informational amounts such as amount_usd). */
  tryFxRate(from: string, to: string): Promise<Decimal | null>
  /** The calendar day (YYYY-MM-DD) of an instant in the project's time zone. */
  dayOf(at: Date): Promise<string>
  /** dayOf for a caller holding the project already (no await). */
  dayIn(project: Project, at: Date): string
}

export function createProjectContext(
  base: {
    storage: TransactionalStore
    clock: Clock
    exchangeRates: ExchangeRates | undefined
    taxIds: TaxIdCipher | null
    fraudCheck?: FraudCheck | undefined
    promotionCodes?: PromotionCodeIssuer | null | undefined
    links?: LinkSettings | undefined
  },
  projectId: string,
  loadProject: () => Promise<Project>,
): ProjectContext {
  const tryFxRate = async (from: string, to: string): Promise<Decimal | null> => {
    if (from === to) return ONE
    if (!base.exchangeRates) return null
    try {
      const rate = await base.exchangeRates(from, to, base.clock.now())
      if (rate === null || rate === undefined) return null
      const decimal = parseDecimal(rate, 'exchangeRate')
      return decimal.units > 0n ? decimal : null
    } catch {
      return null
    }
  }
  // Every zone's offset is a whole number of seconds: the instants of one second fall on one day,
  // so the last second's day answers again without formatting (each visit asks for it).
  let days = { timeZone: '', format: (_at: Date) => '', second: NaN, day: '' }
  const dayIn = (project: Project, at: Date) => {
    const timeZone = project.settings.timeZone ?? 'UTC'
    if (days.timeZone !== timeZone) days = { timeZone, format: dayFormatter(timeZone), second: NaN, day: '' }
    const second = Math.floor(at.getTime() / 1000)
    if (second !== days.second) days = { ...days, second, day: days.format(at) }
    return days.day
  }
  return {
    ...base,
    fraudCheck: base.fraudCheck,
    promotionCodes: base.promotionCodes ?? null,
    links: base.links ?? linkSettings(),
    projectId,
    project: loadProject,
    tryFxRate,
    dayIn,
    dayOf: async (at) => dayIn(await loadProject(), at),
    async fxRate(from, to, field) {
      const rate = await tryFxRate(from, to)
      if (!rate) throw new NoExchangeRateError(field, from, to)
      return rate
    },
  }
}

const USD = new Currency('USD')

/**
 * The amount in US dollars as a JSON number (amount_usd of referral_updated), null without a
 * base amount or a rate. Synchronous when no rate must be looked up.
 */
export function usdAmount(ctx: Pick<ProjectContext, 'tryFxRate'>, base: Money | null): number | null | Promise<number | null> {
  if (base === null) return null
  if (base.currency.code === USD.code) return base.toNumber()
  return ctx.tryFxRate(base.currency.code, USD.code).then((rate) => (rate ? base.convert(USD, rate).toNumber() : null))
}
