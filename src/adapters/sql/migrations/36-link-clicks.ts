// Migration 36: link analytics (docs/analytics.md). The counted clicks, partitioned by month of
// their hour (partitions made ahead by the storage, a default one catching the rest); the rollups
// the click flush maintains; and the click a referred user and a conversion came through, with a
// purchase's revenue in the project currency, so outcomes are reported by link and campaign.
// Its text never changes once released: databases applied it as written.
import type { Migration } from './migration.js'

export const linkClicks: Migration = {
  version: 36,
  name: 'link clicks',
  statements: [
    `ALTER TABLE {s}.referrals ADD COLUMN click_id text`,
    `ALTER TABLE {s}.conversions ADD COLUMN click_id text, ADD COLUMN revenue_minor numeric(24,0)`,
    `CREATE TABLE {s}.link_clicks (
        project_id text NOT NULL,
        id text NOT NULL,
        hour timestamptz NOT NULL,
        at timestamptz NOT NULL,
        day date NOT NULL,
        affiliate_id bigint NOT NULL,
        link_id bigint,
        new_visitor boolean NOT NULL,
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        sub1 text,
        sub2 text,
        sub3 text,
        sub4 text,
        sub5 text,
        referrer_host text,
        country text,
        device text NOT NULL,
        browser text,
        PRIMARY KEY (project_id, id, hour)
      ) PARTITION BY RANGE (hour)`,
    `CREATE TABLE {s}.link_clicks_default PARTITION OF {s}.link_clicks DEFAULT`,
    `CREATE INDEX link_clicks_at_idx ON {s}.link_clicks (project_id, at)`,
    `CREATE TABLE {s}.click_rollups (
        project_id text NOT NULL,
        day date NOT NULL,
        affiliate_id bigint NOT NULL,
        link_id bigint NOT NULL,
        utm_source text NOT NULL,
        utm_medium text NOT NULL,
        utm_campaign text NOT NULL,
        country text NOT NULL,
        device text NOT NULL,
        clicks bigint NOT NULL DEFAULT 0,
        visitors bigint NOT NULL DEFAULT 0,
        bot_clicks bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, day, affiliate_id, link_id, utm_source, utm_medium, utm_campaign, country, device)
      )`,
  ],
}
