// Reading the analytics pages back (console and portal): the cells of their tables and their
// totals as text, and the lines a page should show for an answer of program.analytics.query,
// written out here from the answer's own figures.
import type { AnalyticsAnswer } from '../../../src/core/project/analytics.js'

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const text = (markup: string) => markup.replace(/<[^>]+>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!).trim()

/** The body rows of the first table marked `marker` (a data- attribute), each as its cells' text. */
export function tableRows(page: string, marker: string): string[][] {
  const start = page.indexOf(`<table ${marker}`)
  if (start < 0) return []
  const table = page.slice(start, page.indexOf('</table>', start))
  const body = table.slice(table.indexOf('<tbody>'))
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => text(cell!)))
}

/** The totals the page shows, by name (clicks, visitors, signups, conversions, revenue, commission, bot_clicks). */
export function pageTotals(page: string): Record<string, string> {
  return Object.fromEntries([...page.matchAll(/data-total="([a-z_]+)">([^<]*)</g)].map(([, name, value]) => [name!, text(value!)]))
}

/** Minor units as the pages write money: 4999n USD is "49.99 USD". */
export const shownMoney = (minor: bigint, currency = 'USD') => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')} ${currency}`

/** The totals an answer should show. */
export function answerTotals(answer: AnalyticsAnswer): Record<string, string> {
  const { totals } = answer
  return {
    clicks: String(totals.clicks),
    visitors: String(totals.visitors),
    signups: String(totals.signups),
    conversions: String(totals.conversions),
    revenue: shownMoney(totals.revenue, answer.currency),
    commission: shownMoney(totals.commission, answer.currency),
    bot_clicks: String(totals.botClicks),
  }
}

/**
 * The table lines an answer should show: the group's label (from `labels`) or the bucket's first
 * day, clicks, visitors, signups, conversions, conversions per click in `locale`, revenue, commission.
 */
export function answerLines(answer: AnalyticsAnswer, labels: Record<string, string>, locale = 'en'): string[][] {
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })
  return answer.rows.map((row) => [
    answer.groupBy === null ? row.start! : labels[String(row.group)] ?? String(row.group),
    String(row.clicks),
    String(row.visitors),
    String(row.signups),
    String(row.conversions),
    row.clicks === 0 ? '–' : percent.format(row.conversions / row.clicks),
    shownMoney(row.revenue, answer.currency),
    shownMoney(row.commission, answer.currency),
  ])
}

/** The chart's table an answer with an interval should show: each bucket's first day, clicks, signups, conversions. */
export const answerBuckets = (answer: AnalyticsAnswer): string[][] => answer.rows.map((row) => [row.start!, String(row.clicks), String(row.signups), String(row.conversions)])
