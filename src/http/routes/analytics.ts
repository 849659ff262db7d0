// GET /analytics, once for every shape (docs/analytics.md): clicks, visitors, bot clicks, signups,
// conversions, revenue and commission over a range of days, grouped by a link, an affiliate, a
// campaign field or what a click's browser told, per day, week or month of a time zone.
import type * as v from 'valibot'
import type { AnalyticsInput } from '../../core/project/analytics.js'
import { defineOperation, defined, type ShapeRules } from '../route.js'
import { analyticsQuery } from '../schemas.js'

/** The core's input from the query; `affiliate` is read as the shape reads an affiliate path segment. */
function analyticsInput(query: v.InferOutput<typeof analyticsQuery>, affiliateRef: ShapeRules['affiliateRef']): AnalyticsInput {
  return defined({
    metrics: query.metric?.split(',').map((name) => name.trim()),
    groupBy: query.group_by,
    interval: query.interval,
    from: query.from,
    to: query.to,
    timeZone: query.timezone,
    affiliate: query.affiliate === undefined ? undefined : affiliateRef(query.affiliate),
    link: query.link,
  })
}

export const queryAnalytics = defineOperation({
  id: 'getAnalytics',
  method: 'GET',
  path: '/analytics',
  scope: 'affiliates:read',
  summary: 'Clicks, visitors, bot clicks, signups, conversions, revenue and commission over a range, grouped by link, affiliate, campaign, country, device..., per day, week or month',
  errors: [400, 404],
  query: analyticsQuery,
  run: ({ api, query, affiliateRef }) => api.analytics.query(analyticsInput(query, affiliateRef)),
})

/** What the shapes' codecs call the core's input fields whose wire name is not their snake_case. */
export const ANALYTICS_FIELD_NAMES = { metrics: 'metric', timeZone: 'timezone' }
