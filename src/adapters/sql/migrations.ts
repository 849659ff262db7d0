// Versioned schema migrations, applied on first use under an advisory lock so several processes
// starting at once apply each version exactly once; a no-op when everything is applied. A schema
// migrated past the newest version this release knows is refused (SchemaTooNewError).
import { backfillDailyBatch, BACKFILL_SETUP } from './daily-backfill.js'
import type { SqlClient, SqlExecutor } from './executor.js'

interface Migration {
  version: number
  name: string
  /** `{s}` stands for the quoted schema name. */
  statements: string[]
  /**
   * Work on existing rows done after the statements, one batch per transaction (true when none
   * is left), so it holds no lock for long: the version is recorded with the last batch, and
   * until then each start runs the (idempotent) statements again and resumes.
   */
  batch?: (tx: SqlClient, s: string) => Promise<boolean>
}

export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: 'initial',
    statements: [
      `CREATE TABLE {s}.projects (
        id text PRIMARY KEY,
        name text NOT NULL,
        settings jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE UNIQUE INDEX projects_name_key ON {s}.projects (name)`,
      `CREATE TABLE {s}.api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        name text,
        prefix text NOT NULL,
        hash text NOT NULL,
        scopes jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`,
      `CREATE UNIQUE INDEX api_keys_hash_key ON {s}.api_keys (hash)`,
      `CREATE INDEX api_keys_project_idx ON {s}.api_keys (project_id, id)`,
      `CREATE TABLE {s}.affiliates (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        email text NOT NULL,
        name text,
        referral_code text NOT NULL,
        status text NOT NULL,
        partner_slug text,
        payment_method text,
        payment_details text,
        payout_method text,
        paypal_email text,
        wise_details jsonb,
        parent_id bigint,
        custom_fields jsonb,
        created_at timestamptz NOT NULL,
        counted_value_minor numeric(24,0) NOT NULL DEFAULT 0,
        paid_value_minor numeric(24,0) NOT NULL DEFAULT 0,
        credit_minor numeric(24,0) NOT NULL DEFAULT 0,
        clicks bigint NOT NULL DEFAULT 0,
        signups bigint NOT NULL DEFAULT 0,
        purchases bigint NOT NULL DEFAULT 0
      )`,
      `CREATE UNIQUE INDEX affiliates_email_key ON {s}.affiliates (project_id, lower(email))`,
      `CREATE UNIQUE INDEX affiliates_referral_code_key ON {s}.affiliates (project_id, lower(referral_code))`,
      `CREATE INDEX affiliates_list_idx ON {s}.affiliates (project_id, created_at DESC, id DESC)`,
      `CREATE INDEX affiliates_status_idx ON {s}.affiliates (project_id, status, created_at DESC, id DESC)`,
      `CREATE INDEX affiliates_parent_idx ON {s}.affiliates (project_id, parent_id) WHERE parent_id IS NOT NULL`,
      `CREATE TABLE {s}.referrals (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        email text NOT NULL,
        affiliate_id bigint,
        conversion_status text NOT NULL,
        conversion_date timestamptz,
        first_purchase_at timestamptz,
        created_at timestamptz NOT NULL
      )`,
      `CREATE UNIQUE INDEX referrals_email_key ON {s}.referrals (project_id, lower(email))`,
      `CREATE INDEX referrals_list_idx ON {s}.referrals (project_id, created_at DESC, id DESC)`,
      `CREATE INDEX referrals_affiliate_idx ON {s}.referrals (project_id, affiliate_id, created_at DESC, id DESC)`,
      `CREATE INDEX referrals_status_idx ON {s}.referrals (project_id, conversion_status, created_at DESC, id DESC)`,
      `CREATE TABLE {s}.conversions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        referred_user_id bigint,
        customer_email text,
        type text NOT NULL,
        value_minor numeric(24,0) NOT NULL,
        base_value_minor numeric(24,0),
        base_currency text,
        refunded_base_value_minor numeric(24,0) NOT NULL DEFAULT 0,
        paid boolean NOT NULL DEFAULT false,
        paid_by_payout_id bigint,
        status text NOT NULL,
        hold_until timestamptz NOT NULL,
        reference text,
        fingerprint text,
        coupon_code_used text,
        basis text NOT NULL,
        commission_type text NOT NULL,
        commission_rate text,
        tier smallint NOT NULL,
        parent_conversion_id bigint,
        refund_reason text,
        created_at timestamptz NOT NULL
      )`,
      `CREATE UNIQUE INDEX conversions_reference_key ON {s}.conversions (project_id, reference) WHERE reference IS NOT NULL`,
      `CREATE INDEX conversions_list_idx ON {s}.conversions (project_id, created_at DESC, id DESC)`,
      `CREATE INDEX conversions_affiliate_idx ON {s}.conversions (project_id, affiliate_id, created_at DESC, id DESC)`,
      `CREATE INDEX conversions_referred_idx ON {s}.conversions (project_id, referred_user_id, created_at DESC, id DESC)
        WHERE referred_user_id IS NOT NULL`,
      `CREATE INDEX conversions_type_idx ON {s}.conversions (project_id, type, created_at DESC, id DESC)`,
      `CREATE INDEX conversions_paid_idx ON {s}.conversions (project_id, paid, created_at DESC, id DESC)`,
      // The held part of a balance: only unpaid active rows, ordered by release time.
      `CREATE INDEX conversions_held_idx ON {s}.conversions (project_id, affiliate_id, hold_until)
        INCLUDE (value_minor) WHERE status = 'active' AND NOT paid`,
      // Settling walks unpaid active rows oldest first.
      `CREATE INDEX conversions_unpaid_idx ON {s}.conversions (project_id, affiliate_id, created_at, id)
        INCLUDE (value_minor, hold_until) WHERE status = 'active' AND NOT paid`,
      `CREATE TABLE {s}.coupons (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        code text NOT NULL,
        processor_coupon_id text,
        discount_type text,
        discount_value text,
        created_at timestamptz NOT NULL
      )`,
      `CREATE UNIQUE INDEX coupons_code_key ON {s}.coupons (project_id, lower(code))`,
      `CREATE INDEX coupons_list_idx ON {s}.coupons (project_id, created_at DESC, id DESC)`,
      `CREATE INDEX coupons_affiliate_idx ON {s}.coupons (project_id, affiliate_id, created_at DESC, id DESC)`,
      `CREATE TABLE {s}.clicks (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        ip_address text,
        user_agent text,
        landing_url text,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX clicks_affiliate_idx ON {s}.clicks (project_id, affiliate_id)`,
      `CREATE TABLE {s}.payouts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        affiliate_email text NOT NULL,
        amount_minor numeric(24,0) NOT NULL,
        currency text NOT NULL,
        method text NOT NULL,
        status text NOT NULL,
        payment_date timestamptz NOT NULL,
        conversions_settled integer NOT NULL,
        unpaid_after_minor numeric(24,0) NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX payouts_list_idx ON {s}.payouts (project_id, created_at DESC, id DESC)`,
      `CREATE INDEX payouts_affiliate_idx ON {s}.payouts (project_id, affiliate_id, created_at DESC, id DESC)`,
      `CREATE TABLE {s}.webhook_endpoints (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        url text NOT NULL,
        events jsonb NOT NULL,
        secret text,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        mode text NOT NULL,
        active boolean NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX webhook_endpoints_project_idx ON {s}.webhook_endpoints (project_id, id)`,
      `CREATE TABLE {s}.webhook_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE {s}.deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id text NOT NULL,
        event_id bigint NOT NULL,
        endpoint_id bigint NOT NULL,
        event_type text NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        last_status_code integer,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX deliveries_list_idx ON {s}.deliveries (project_id, created_at DESC, id DESC)`,
      `CREATE INDEX deliveries_endpoint_idx ON {s}.deliveries (project_id, endpoint_id, created_at DESC, id DESC)`,
      `CREATE INDEX deliveries_status_idx ON {s}.deliveries (project_id, status, created_at DESC, id DESC)`,
      `CREATE INDEX deliveries_type_idx ON {s}.deliveries (project_id, event_type, created_at DESC, id DESC)`,
      `CREATE INDEX deliveries_due_idx ON {s}.deliveries (next_attempt_at, id) WHERE status = 'pending'`,
      `CREATE INDEX deliveries_lease_idx ON {s}.deliveries (lease_until, id) WHERE status = 'delivering'`,
      `CREATE TABLE {s}.delivery_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL,
        project_id text NOT NULL,
        attempted_at timestamptz NOT NULL,
        status_code integer,
        duration_ms double precision NOT NULL,
        response_excerpt text,
        error text
      )`,
      `CREATE INDEX delivery_attempts_delivery_idx ON {s}.delivery_attempts (delivery_id, id)`,
      `CREATE TABLE {s}.idempotency_keys (
        project_id text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        response_status integer,
        response_body text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, key)
      )`,
      `CREATE TABLE {s}.rate_limits (
        key text PRIMARY KEY,
        state double precision
      )`,
    ],
  },
  {
    // Rows that belong to an affiliate or endpoint reference it, within the same project: a write
    // racing the deletion of its owner waits for it and then fails instead of leaving an orphan.
    // Keys lead with project_id so the existing indexes serve the checks (SET NULL of one column
    // needs PostgreSQL 15).
    version: 2,
    name: 'foreign keys',
    statements: [
      `CREATE UNIQUE INDEX affiliates_project_id_key ON {s}.affiliates (project_id, id)`,
      `ALTER TABLE {s}.affiliates ADD CONSTRAINT affiliates_project_id_unique UNIQUE USING INDEX affiliates_project_id_key`,
      `CREATE UNIQUE INDEX webhook_endpoints_project_id_key ON {s}.webhook_endpoints (project_id, id)`,
      `ALTER TABLE {s}.webhook_endpoints ADD CONSTRAINT webhook_endpoints_project_id_unique UNIQUE USING INDEX webhook_endpoints_project_id_key`,
      ...['conversions', 'coupons', 'clicks', 'payouts'].map(
        (table) => `ALTER TABLE {s}.${table} ADD CONSTRAINT ${table}_affiliate_fkey
          FOREIGN KEY (project_id, affiliate_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE CASCADE`,
      ),
      `ALTER TABLE {s}.referrals ADD CONSTRAINT referrals_affiliate_fkey
        FOREIGN KEY (project_id, affiliate_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE SET NULL (affiliate_id)`,
      `ALTER TABLE {s}.affiliates ADD CONSTRAINT affiliates_parent_fkey
        FOREIGN KEY (project_id, parent_id) REFERENCES {s}.affiliates (project_id, id) ON DELETE SET NULL (parent_id)`,
      `ALTER TABLE {s}.deliveries ADD CONSTRAINT deliveries_endpoint_fkey
        FOREIGN KEY (project_id, endpoint_id) REFERENCES {s}.webhook_endpoints (project_id, id) ON DELETE CASCADE`,
      `ALTER TABLE {s}.delivery_attempts ADD CONSTRAINT delivery_attempts_delivery_fkey
        FOREIGN KEY (delivery_id) REFERENCES {s}.deliveries (id) ON DELETE CASCADE`,
    ],
  },
  {
    version: 3,
    name: 'tier-2 shares by source conversion',
    statements: [
      `CREATE INDEX conversions_parent_idx ON {s}.conversions (project_id, parent_conversion_id) WHERE parent_conversion_id IS NOT NULL`,
    ],
  },
  {
    version: 4,
    name: 'coupon status',
    statements: [`ALTER TABLE {s}.coupons ADD COLUMN status text NOT NULL DEFAULT 'active'`],
  },
  {
    // An unanswered Idempotency-Key claim is leased: a repeat after the lease may take it over
    // (the process that claimed it died between claim and answer).
    version: 5,
    name: 'idempotency key leases',
    statements: [`ALTER TABLE {s}.idempotency_keys ADD COLUMN lease_until timestamptz`],
  },
  {
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
  },
  {
    version: 7,
    name: 'tracking: daily counters, visitor days, visitor salts, referral times',
    statements: [
      `CREATE TABLE {s}.tracking_daily (
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        day date NOT NULL,
        clicks bigint NOT NULL DEFAULT 0,
        visitors bigint NOT NULL DEFAULT 0,
        signups bigint NOT NULL DEFAULT 0,
        purchases bigint NOT NULL DEFAULT 0,
        revenue_minor numeric(24,0) NOT NULL DEFAULT 0,
        commission_minor numeric(24,0) NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, affiliate_id, day)
      )`,
      `CREATE INDEX tracking_daily_day_idx ON {s}.tracking_daily (project_id, day)`,
      `CREATE TABLE {s}.tracking_visitors (
        project_id text NOT NULL,
        affiliate_id bigint NOT NULL,
        day date NOT NULL,
        visitor text NOT NULL,
        PRIMARY KEY (project_id, affiliate_id, day, visitor)
      )`,
      `CREATE TABLE {s}.tracking_salts (
        project_id text PRIMARY KEY,
        salt text NOT NULL
      )`,
      `CREATE TABLE {s}.referral_times (
        project_id text NOT NULL,
        referral_id bigint NOT NULL,
        referred_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, referral_id)
      )`,
    ],
  },
  {
    version: 8,
    name: 'browser sessions and sign-in tokens',
    statements: [
      `CREATE TABLE {s}.web_sessions (
        digest text PRIMARY KEY,
        audience text NOT NULL,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        subject text NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        idle_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX web_sessions_subject_idx ON {s}.web_sessions (project_id, audience, subject)`,
      `CREATE TABLE {s}.web_sign_in_tokens (
        digest text PRIMARY KEY,
        audience text NOT NULL,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        subject text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 9,
    name: 'admin console audit log',
    statements: [
      `CREATE TABLE {s}.admin_audit_log (
        id bigserial PRIMARY KEY,
        project_id text NOT NULL REFERENCES {s}.projects (id) ON DELETE CASCADE,
        actor_id text NOT NULL,
        actor_name text NOT NULL,
        action text NOT NULL,
        target text,
        detail text,
        at timestamptz NOT NULL
      )`,
      `CREATE INDEX admin_audit_log_project_idx ON {s}.admin_audit_log (project_id, id)`,
    ],
  },
  {
    // An event saved waiting flags the key it waits for on the key's woken link, and the event
    // that wakes a key reads the waiting events only when it is flagged: events an earlier version
    // saved waiting (or a woken one still took) flag their keys here, or nothing would wake them.
    version: 10,
    name: 'flag the keys of waiting provider events',
    statements: [
      `INSERT INTO {s}.provider_links AS saved (project_id, provider, kind, external_id, data)
        SELECT DISTINCT project_id, provider, 'woken', waiting_for, '{"waited":"yes"}'::jsonb
        FROM {s}.provider_events WHERE waiting_for IS NOT NULL
        ON CONFLICT (project_id, provider, kind, external_id) DO UPDATE SET data = saved.data || excluded.data`,
    ],
  },
  {
    // The minute sweep applies the events still waiting for a key woken after they were saved,
    // by the time on the key's mark. Marks an earlier version wrote have none: they are dated to
    // the upgrade, so an event such a mark left waiting (its waker failed) is applied once more.
    version: 11,
    name: 'date the marks of woken provider keys',
    statements: [
      `UPDATE {s}.provider_links
        SET data = data || jsonb_build_object('at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        WHERE kind = 'woken' AND data ? 'mark' AND NOT data ? 'at'`,
    ],
  },
  {
    // Each write of a project's settings adds one: processes sharing the database tell by it
    // which settings they apply (the program reads them again at most a second old).
    version: 12,
    name: 'project settings version',
    statements: [`ALTER TABLE {s}.projects ADD COLUMN settings_version bigint NOT NULL DEFAULT 1`],
  },
  {
    version: 13,
    name: 'count the history stored before the daily counters',
    statements: BACKFILL_SETUP,
    batch: backfillDailyBatch,
  },
]

/** The newest schema version this release knows. */
export const KNOWN_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version))

/**
 * The database was migrated by a newer release: this one would ignore what the newer migrations
 * added (a column it never reads, a table it never writes) and corrupt the newer release's data.
 */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError'
  constructor(
    readonly schemaVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `database schema version ${schemaVersion}, this release knows up to ${knownVersion}: a newer affiliate-kit migrated it; ` +
        'run that release or a newer one (docs/operations.md, "Upgrades and rollbacks")',
    )
  }
}

function refuseNewer(recorded: Set<number>): void {
  const newest = Math.max(0, ...recorded)
  if (newest > KNOWN_SCHEMA_VERSION) throw new SchemaTooNewError(newest, KNOWN_SCHEMA_VERSION)
}

export interface AppliedMigration {
  version: number
  name: string
}

/** Validates a schema name and returns it quoted for SQL text. */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`affiliate-kit: invalid schema name ${JSON.stringify(schema)} (letters, digits and _ only)`)
  }
  return `"${schema}"`
}

/** Errors of a schema or table that does not exist (yet). */
const UNDEFINED_OBJECT = new Set(['3F000', '42P01'])

/** The versions recorded in `{s}.schema_migrations`; none when it does not exist yet. */
async function recordedVersions(client: SqlClient, s: string): Promise<Set<number>> {
  try {
    const rows = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)
    return new Set(rows.map((row) => Number(row.version)))
  } catch (error) {
    if (UNDEFINED_OBJECT.has((error as { code?: string }).code ?? '')) return new Set()
    throw error
  }
}

/** Applies every migration not yet recorded in `{schema}.schema_migrations`; resolves with those it applied, oldest first. */
export async function migrate(executor: SqlExecutor, schema: string): Promise<AppliedMigration[]> {
  const s = quoteSchema(schema)
  // Usually all is applied already: one read, without the lock and the DDL, tells.
  const recorded = await recordedVersions(executor, s)
  refuseNewer(recorded)
  if (MIGRATIONS.every((migration) => recorded.has(migration.version))) return []
  // One lock per schema: concurrent starters wait here, then see the versions already applied.
  const lock = (tx: SqlClient) => tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`affiliate-kit:${schema}`])
  const record = (tx: SqlClient, migration: Migration) =>
    tx.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
  const applied = await executor.transaction(async (tx) => {
    await lock(tx)
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${s}`)
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    )
    const present = await recordedVersions(tx, s)
    refuseNewer(present)
    const applied: AppliedMigration[] = []
    for (const migration of MIGRATIONS) {
      if (present.has(migration.version)) continue
      for (const statement of migration.statements) await tx.query(statement.replaceAll('{s}', s))
      if (migration.batch) continue
      await record(tx, migration)
      applied.push({ version: migration.version, name: migration.name })
    }
    return applied
  })
  for (const migration of MIGRATIONS) {
    if (!migration.batch || recorded.has(migration.version)) continue
    for (let done: boolean | 'by another' = false; !done; ) {
      done = await executor.transaction(async (tx) => {
        await lock(tx)
        if ((await recordedVersions(tx, s)).has(migration.version)) return 'by another'
        if (!(await migration.batch!(tx, s))) return false
        await record(tx, migration)
        return true
      })
      if (done === true) applied.push({ version: migration.version, name: migration.name })
    }
  }
  return applied.sort((a, b) => a.version - b.version)
}
