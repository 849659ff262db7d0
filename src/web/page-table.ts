// One declarative table of an app's pages (the portal's, the console's): each row says a path
// below the mount path (`:id` stands for a record id), the GET page, the POST action, its label in
// the navigation and the name pages build links with (`:ref` stands for any one path segment,
// handed over as written). Routing, the Allow list, navigation and the
// paths object all derive from it.
import type { NavItem } from './layout.js'

/** One row: `path` such as '/conversions/:id'; `page` answers GET, `action` answers POST. */
export interface PageRoute<Context, Result> {
  path: string
  /** The key of the paths object pages link with (a function of the id when the path has `:id`). */
  name?: string
  /** `id` is the `:id` of the path (0 when none); `ref` the `:ref` or `:id` segment as written. */
  page?: (context: Context, id: number, ref: string) => Promise<Result>
  action?: (context: Context, form: URLSearchParams, id: number, ref: string) => Promise<Result>
  /** The label of the navigation link to this page. */
  nav?: string
}

export type PageTable<Context, Result> = ReadonlyArray<PageRoute<Context, Result>>

const ID = '([1-9][0-9]{0,14})'
const patterns = new WeakMap<object, RegExp>()

function patternOf(row: { path: string }): RegExp {
  let pattern = patterns.get(row)
  if (!pattern) {
    const escaped = row.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(':id', ID).replace(':ref', '([^/]+)')
    pattern = new RegExp(`^${escaped}$`)
    patterns.set(row, pattern)
  }
  return pattern
}

/** The row answering `route` with `method` (GET or POST), and the id in the path (0 when none). */
export function matchPage<C, R>(table: PageTable<C, R>, route: string, method: 'GET' | 'POST'): { row: PageRoute<C, R>; id: number; ref: string } | null {
  for (const row of table) {
    if (method === 'GET' ? !row.page : !row.action) continue
    const match = patternOf(row).exec(route)
    if (match) return { row, id: /^[0-9]+$/.test(match[1] ?? '') ? Number(match[1]) : 0, ref: match[1] ?? '' }
  }
  return null
}

/** The methods the table answers for `route`, or null when no row matches it. */
export function tableMethods<C, R>(table: PageTable<C, R>, route: string): string[] | null {
  const methods = [...(matchPage(table, route, 'GET') ? ['GET'] : []), ...(matchPage(table, route, 'POST') ? ['POST'] : [])]
  return methods.length === 0 ? null : methods
}

/** The URL of a row under the mount path, with the id in place of `:id` (or `:ref`). */
export function linkTo(base: string, path: string, id?: number | string): string {
  return base + (id === undefined ? path : path.replace(/:id|:ref/, String(id)))
}

/** The named rows as a paths object: a string, or a function of the id for a path with `:id`. */
export function tableLinks<C, R>(table: PageTable<C, R>, base: string): Record<string, string | ((id: number) => string)> {
  const links: Record<string, string | ((id: number) => string)> = {}
  for (const row of table) {
    if (row.name === undefined) continue
    links[row.name] = /:id|:ref/.test(row.path) ? (id: number) => linkTo(base, row.path, id) : linkTo(base, row.path)
  }
  return links
}

/** The navigation of the rows with a label, in table order; `current` is the URL to mark. */
export function tableNav<C, R>(table: PageTable<C, R>, base: string, current: string): NavItem[] {
  return table.filter((row) => row.nav !== undefined).map((row) => ({ href: linkTo(base, row.path), label: row.nav!, current: linkTo(base, row.path) === current }))
}
