// GET /stats and GET /affiliates/:email/stats in both shapes (docs/stats.md): clicks, visitors,
// signups, purchases, revenue and commission per day, week or month of the project's time zone.
import * as v from 'valibot'
import { statsInput as statsQuery, type StatsSeries } from '../core/stats.js'
import type { DailyCounts } from '../core/tracking-storage.js'
import { Currency } from '../core/money.js'
import { apiOperations } from './api-operations.js'
import { defineRoute } from './route.js'

const day = v.pipe(v.string(), v.isoDate())
const decimalString = v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))
const count = v.pipe(v.number(), v.integer())
const interval = v.picklist(['day', 'week', 'month'])

const primaryCounts = { clicks: count, unique_visitors: count, signups: count, purchases: count, revenue: decimalString, commission: decimalString }
const primaryStats = v.strictObject({
  data: v.strictObject({
    interval,
    time_zone: v.string(),
    currency: v.string(),
    from: day,
    to: day,
    buckets: v.array(v.strictObject({ start: day, ...primaryCounts })),
    totals: v.strictObject(primaryCounts),
  }),
})
const alternativeCounts = { clicks: count, uniqueVisitors: count, signups: count, purchases: count, revenue: decimalString, commission: decimalString }
const alternativeStats = v.strictObject({
  data: v.strictObject({
    interval,
    timeZone: v.string(),
    currency: v.string(),
    from: day,
    to: day,
    buckets: v.array(v.strictObject({ start: day, ...alternativeCounts })),
    totals: v.strictObject(alternativeCounts),
  }),
})

function counts(row: DailyCounts, currency: Currency, visitorsKey: 'unique_visitors' | 'uniqueVisitors') {
  return {
    clicks: row.clicks,
    [visitorsKey]: row.visitors,
    signups: row.signups,
    purchases: row.purchases,
    revenue: currency.amount(row.revenue).format(),
    commission: currency.amount(row.commission).format(),
  }
}

function primaryBody(series: StatsSeries) {
  const seriesCurrency = new Currency(series.currency)
  const { interval, currency, from, to } = series
  return {
    data: {
      interval,
      time_zone: series.timeZone,
      currency,
      from,
      to,
      buckets: series.buckets.map((bucket) => ({ start: bucket.start, ...counts(bucket, seriesCurrency, 'unique_visitors') })),
      totals: counts(series.totals, seriesCurrency, 'unique_visitors'),
    },
  }
}

function alternativeBody(series: StatsSeries) {
  const seriesCurrency = new Currency(series.currency)
  const { interval, timeZone, currency, from, to } = series
  return {
    data: {
      interval,
      timeZone,
      currency,
      from,
      to,
      buckets: series.buckets.map((bucket) => ({ start: bucket.start, ...counts(bucket, seriesCurrency, 'uniqueVisitors') })),
      totals: counts(series.totals, seriesCurrency, 'uniqueVisitors'),
    },
  }
}

export const primaryStatsRoutes = [
  defineRoute({
    ...apiOperations.getStats,
    query: statsQuery,
    responses: { 200: { name: 'StatsResponse', schema: primaryStats } },
    async run({ api, query }) {
      return { status: 200, body: primaryBody(await api.stats.program(query)) }
    },
  }),
  defineRoute({
    ...apiOperations.getAffiliatesEmailStats,
    query: statsQuery,
    responses: { 200: { name: 'StatsResponse', schema: primaryStats } },
    async run({ api, params, query }) {
      return { status: 200, body: primaryBody(await api.stats.affiliate(params.email ?? '', query)) }
    },
  }),
] as const

export const alternativeStatsRoutes = [
  defineRoute({
    ...apiOperations.getStats,
    query: statsQuery,
    responses: { 200: { name: 'StatsResponse', schema: alternativeStats } },
    async run({ api, query }) {
      return { status: 200, body: alternativeBody(await api.stats.program(query)) }
    },
  }),
  defineRoute({
    ...apiOperations.getAffiliatesEmailStats,
    query: statsQuery,
    responses: { 200: { name: 'StatsResponse', schema: alternativeStats } },
    async run({ api, params, query }) {
      return { status: 200, body: alternativeBody(await api.stats.affiliate(params.email ?? '', query)) }
    },
  }),
] as const
