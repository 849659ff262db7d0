// A list read page after page must move forward: a page that brings no record not seen before
// (the same full page again, the same record behind every next link) or an empty page that still
// announces a next one stops the import with one line, instead of reading forever. A record seen
// again on a later page (offset paging while the tool changes) is passed on once.

export interface PageGuard {
  /** The page's records not seen before on this list; throws when the page makes no progress while `more` follows. */
  fresh<T>(page: number, records: T[], more: boolean): T[]
}

/** `error` builds the tool's failure (an ImportSourceError) from a message. */
export function pageGuard(tool: string, path: string, error: (message: string) => Error): PageGuard {
  const seen = new Set<string>()
  return {
    fresh<T>(page: number, records: T[], more: boolean): T[] {
      if (records.length === 0) {
        if (more) throw error(`${tool} answered ${path} page ${page} with no records while announcing a next page: stopped, it makes no progress`)
        return records
      }
      const fresh = records.filter((record) => {
        const key = keyOf(record)
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      if (fresh.length === 0) throw error(`${tool} answered ${path} page ${page} with only records it had sent already (the page repeats): stopped, it makes no progress`)
      return fresh
    },
  }
}

/** A record's id, or its whole content when it has none. */
function keyOf(record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id
  return typeof id === 'string' || typeof id === 'number' ? `id:${id}` : `json:${JSON.stringify(record)}`
}
