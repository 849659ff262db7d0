// What names a group of an analytics answer on the console's and the portal's pages: a link's key
// (docs/links.md), an affiliate's email, and for the other dimensions the value itself; the group
// of events without a value says so.
import { NotFoundError } from '../core/model/errors.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { ProjectScope } from '../core/program.js'
import type { AnalyticsDimension } from '../core/ports/analytics.js'

/** What the labels read: links and affiliates. */
export type GroupReader = Pick<ProjectScope, 'affiliates' | 'links'>

/** Each id's label as `read` gives it, `#id` for a record deleted since (or one `read` does not name). */
async function labelsById(ids: readonly number[], read: (id: number) => Promise<string | null>): Promise<Map<number, string>> {
  const labels = new Map<number, string>()
  for (const id of ids) {
    const label = await read(id).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)))
    labels.set(id, label ?? `#${id}`)
  }
  return labels
}

/**
 * The label of each group of an answer grouped by `groupBy`, by the group's value (null: events
 * without one). With `owner`, only that affiliate's links are named by their key: a sale of its
 * own may have come through another's link, whose key is not its to see.
 */
export async function groupLabels(program: GroupReader, groupBy: AnalyticsDimension, groups: ReadonlyArray<string | null>, t: Translate, owner?: number): Promise<Map<string | null, string>> {
  const values = groups.filter((group): group is string => group !== null)
  const ids = values.map(Number)
  const byId =
    groupBy === 'link'
      ? await labelsById(ids, async (id) => {
          const link = await program.links.get(id)
          return owner === undefined || link.affiliateId === owner ? link.key : null
        })
      : groupBy === 'affiliate'
        ? await labelsById(ids, async (id) => (await program.affiliates.get(id)).email)
        : null
  const labels = new Map<string | null, string>(values.map((value) => [value, byId?.get(Number(value)) ?? value]))
  labels.set(null, t(groupBy === 'link' ? 'analytics.none_link' : 'analytics.none'))
  return labels
}
