// Migration 11: dates the marks of woken provider keys.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// The minute sweep applies the events still waiting for a key woken after they were saved,
// by the time on the key's mark. Marks an earlier version wrote have none: they are dated to
// the upgrade, so an event such a mark left waiting (its waker failed) is applied once more.
export const dateWokenProviderKeys: Migration = {
  version: 11,
  name: 'date the marks of woken provider keys',
  statements: [
    `UPDATE {s}.provider_links
        SET data = data || jsonb_build_object('at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        WHERE kind = 'woken' AND data ? 'mark' AND NOT data ? 'at'`,
  ],
}
