// Migration 6: payment-provider events and provider links.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const providerEvents: Migration = {
  version: 6,
  name: 'payment provider events and links',
  statements: [
    `CREATE TABLE {s}.provider_events (
        id bigserial PRIMARY KEY,
        project_id text NOT NULL REFERENCES {s}.projects (id),
        provider text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        reference text,
        status text NOT NULL,
        detail text,
        conversion_id bigint,
        refund_amount text,
        waiting_for text,
        mapped jsonb,
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT provider_events_event_key UNIQUE (project_id, provider, event_id)
      )`,
    `CREATE INDEX provider_events_list_idx ON {s}.provider_events (project_id, created_at DESC, id DESC)`,
    `CREATE INDEX provider_events_reference_idx ON {s}.provider_events (project_id, reference)`,
    `CREATE INDEX provider_events_waiting_idx ON {s}.provider_events (project_id, provider, waiting_for) WHERE status = 'waiting'`,
    `CREATE TABLE {s}.provider_links (
        project_id text NOT NULL REFERENCES {s}.projects (id),
        provider text NOT NULL,
        kind text NOT NULL,
        external_id text NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (project_id, provider, kind, external_id)
      )`,
  ],
}
