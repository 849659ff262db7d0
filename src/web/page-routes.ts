// The route pattern of a page request for its log line and metrics: a path's segments that occur
// in the pages' own paths stay, any other (an id, a code) becomes `:id`. So ids, emails and
// tokens never reach the log, and made-up paths cannot grow the metrics.

/** `paths` is the pages' paths object (portalPaths, adminPaths): its strings, and its functions called with an id. */
export function pageRoutes(paths: object): (path: string) => string {
  const words = new Set<string>()
  for (const value of Object.values(paths) as unknown[]) {
    const path = typeof value === 'function' ? (value as (id: number) => unknown)(0) : value
    if (typeof path !== 'string') continue
    for (const segment of path.split('?')[0]!.split('/')) if (!/^\d+$/.test(segment)) words.add(segment)
  }
  return (path) =>
    path
      .split('/')
      .map((segment) => (words.has(segment) ? segment : ':id'))
      .join('/')
}
