// Migration 10: flags the keys that waiting provider events wait for.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

// An event saved waiting flags the key it waits for on the key's woken link, and the event
// that wakes a key reads the waiting events only when it is flagged: events an earlier version
// saved waiting (or a woken one still took) flag their keys here, or nothing would wake them.
export const flagWaitingProviderKeys: Migration = {
  version: 10,
  name: 'flag the keys of waiting provider events',
  statements: [
    `INSERT INTO {s}.provider_links AS saved (project_id, provider, kind, external_id, data)
        SELECT DISTINCT project_id, provider, 'woken', waiting_for, '{"waited":"yes"}'::jsonb
        FROM {s}.provider_events WHERE waiting_for IS NOT NULL
        ON CONFLICT (project_id, provider, kind, external_id) DO UPDATE SET data = saved.data || excluded.data`,
  ],
}
