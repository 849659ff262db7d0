// What names a group of an analytics answer on the console's and the portal's pages: an
// affiliate's email, a link's label (linkLabels, the one place to look up link keys), and for
// the other dimensions the value itself; the group of events without a value says so.
import { NotFoundError } from '../core/model/errors.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { ProjectScope } from '../core/program.js'
import type { AnalyticsDimension } from '../core/ports/analytics.js'

/** What the labels read: affiliates, for a grouping by affiliate. */
export type GroupReader = Pick<ProjectScope, 'affiliates'>

/** Each link's label by its id: the id for now; the link's key once the program has links (docs/links.md). */
async function linkLabels(ids: readonly number[]): Promise<Map<number, string>> {
  return new Map(ids.map((id) => [id, `#${id}`]))
}

/** Each affiliate's email by its id; `#id` for one deleted since. */
async function affiliateLabels(program: GroupReader, ids: readonly number[]): Promise<Map<number, string>> {
  const labels = new Map<number, string>()
  for (const id of ids) {
    const affiliate = await program.affiliates.get(id).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)))
    labels.set(id, affiliate?.email ?? `#${id}`)
  }
  return labels
}

/** The label of each group of an answer grouped by `groupBy`, by the group's value (null: events without one). */
export async function groupLabels(program: GroupReader, groupBy: AnalyticsDimension, groups: ReadonlyArray<string | null>, t: Translate): Promise<Map<string | null, string>> {
  const labels = new Map<string | null, string>()
  const values = groups.filter((group): group is string => group !== null)
  const ids = values.map(Number)
  const byId = groupBy === 'link' ? await linkLabels(ids) : groupBy === 'affiliate' ? await affiliateLabels(program, ids) : null
  for (const value of values) labels.set(value, byId?.get(Number(value)) ?? value)
  labels.set(null, t(groupBy === 'link' ? 'analytics.none_link' : 'analytics.none'))
  return labels
}
