// The analytics answer as each shape writes it (docs/analytics.md), as the stats answer is: the
// primary shape's snake_case names or the alternative's camelCase ones, only the metrics asked
// for, money as decimal text of the project currency, and a group of affiliates by the id the
// shape gives an affiliate.
import { Currency } from '../../core/model/money.js'
import { ANALYTICS_METRICS, type AnalyticsAnswer, type AnalyticsFigures, type AnalyticsMetric } from '../../core/project/analytics.js'
import { affiliateWireId } from './alternative-records.js'

/** The names a shape gives the answer's fields that are two words. */
export interface AnalyticsNames {
  timeZone: string
  groupBy: string
  botClicks: string
  omittedGroups: string
}

const FIELD: Record<AnalyticsMetric, keyof AnalyticsFigures> = {
  clicks: 'clicks',
  visitors: 'visitors',
  signups: 'signups',
  conversions: 'conversions',
  revenue: 'revenue',
  commission: 'commission',
  bot_clicks: 'botClicks',
}

export function analyticsIn(names: AnalyticsNames, affiliateGroup: (id: string) => string) {
  return (answer: AnalyticsAnswer) => {
    const currency = new Currency(answer.currency)
    const asked = ANALYTICS_METRICS.filter((metric) => answer.metrics.includes(metric))
    const figures = (row: AnalyticsFigures) => {
      const written: Record<string, number | string> = {}
      for (const metric of asked) {
        const value = row[FIELD[metric]]
        written[metric === 'bot_clicks' ? names.botClicks : metric] = typeof value === 'bigint' ? currency.amount(value).format() : value
      }
      return written
    }
    const group = (value: string | null) => (value !== null && answer.groupBy === 'affiliate' ? affiliateGroup(value) : value)
    const rows = answer.rows.map((row) => ({
      ...(row.start === undefined ? {} : { start: row.start }),
      ...(row.group === undefined ? {} : { group: group(row.group) }),
      ...figures(row),
    }))
    return {
      data: {
        from: answer.from,
        to: answer.to,
        [names.timeZone]: answer.timeZone,
        interval: answer.interval,
        [names.groupBy]: answer.groupBy,
        currency: answer.currency,
        metrics: asked,
        rows,
        totals: figures(answer.totals),
        [names.omittedGroups]: answer.omittedGroups,
      },
    }
  }
}

export const primaryAnalytics = analyticsIn({ timeZone: 'time_zone', groupBy: 'group_by', botClicks: 'bot_clicks', omittedGroups: 'omitted_groups' }, (id) => id)
export const alternativeAnalytics = analyticsIn({ timeZone: 'timeZone', groupBy: 'groupBy', botClicks: 'botClicks', omittedGroups: 'omittedGroups' }, (id) => affiliateWireId(Number(id)))
