// Link aliases after the upgrade to links (migration 35): a database written by the release before
// it (schema 34, aliases in link_aliases) is opened by this release, and every alias is a link of
// its affiliate with only its key, resolving as before; the old table's name is a view over links
// that the release before still reads and writes through. On PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest'
import { createAffiliateProgram } from '../../../src/index.js'
import { migrateTo, places } from '../../support/sql/earlier-release.js'

describe.each(places)('link aliases become links: $name', ({ skip, make }) => {
  it.skipIf(skip !== undefined)(`keeps every alias resolving to its affiliate, as a link with only a key${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const { schema, exec, open, cleanup } = await make()
    const s = `"${schema}"`
    try {
      await migrateTo(exec, s, 34)
      const settings = { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } }
      await exec(`INSERT INTO ${s}.projects (id, name, settings, created_at) VALUES ('proj_old', 'default', $1, '2026-01-01T00:00:00Z')`, [JSON.stringify(settings)])
      const affiliate = async (email: string, code: string) =>
        Number(
          (await exec(`INSERT INTO ${s}.affiliates (project_id, email, referral_code, status, created_at) VALUES ('proj_old', $1, $2, 'active', '2026-01-01T00:00:00Z') RETURNING id`, [email, code]))[0]!.id,
        )
      const ann = await affiliate('ann@example.com', 'ann')
      const bob = await affiliate('bob@example.com', 'bob')
      const alias = (affiliateId: number, token: string, at: string) =>
        exec(`INSERT INTO ${s}.link_aliases (project_id, affiliate_id, alias, created_at) VALUES ('proj_old', $1, $2, $3)`, [affiliateId, token, at])
      await alias(ann, 'Ann-Old', '2026-02-01T00:00:00Z')
      await alias(ann, 'ann-rewardful', '2026-02-02T00:00:00Z')
      await alias(bob, 'bob-old', '2026-02-03T00:00:00Z')

      const storage = open()
      try {
        const program = await createAffiliateProgram({ storage })
        expect(program.projectId).toBe('proj_old')
        const { items, total } = await program.links.list()
        expect(total).toBe(3)
        expect(items.map((link) => [link.key, link.affiliateId, link.createdAt.toISOString()])).toEqual([
          ['bob-old', bob, '2026-02-03T00:00:00.000Z'],
          ['ann-rewardful', ann, '2026-02-02T00:00:00.000Z'],
          ['Ann-Old', ann, '2026-02-01T00:00:00.000Z'],
        ])
        for (const link of items) expect(link).toMatchObject({ url: null, destination: null, domain: null, utmSource: null, utmMedium: null, utmCampaign: null, utmTerm: null, utmContent: null })
        expect(await program.affiliates.aliases(ann)).toEqual(['Ann-Old', 'ann-rewardful'])
        expect((await program.links.resolve('ann-old'))?.affiliate.id).toBe(ann)
        expect((await program.trackClick({ referralCode: 'BOB-OLD' })).affiliateId).toBe(bob)
        // The rule still holds over the moved rows: a taken alias stays taken.
        await expect(program.links.create({ affiliate: bob, key: 'ann-old' })).rejects.toMatchObject({ code: 'conflict', field: 'key' })
        await expect(program.affiliates.create({ email: 'cy@example.com', referralCode: 'ANN-REWARDFUL' })).rejects.toMatchObject({ code: 'conflict', field: 'referralCode' })
        // The old table is a view over links now: a server of the release before, still running
        // during a rolling deploy, finds and adds aliases with its own statements (migration 18's columns).
        expect(await exec(`SELECT c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'link_aliases'`, [schema])).toEqual([{ kind: 'v' }])
        await exec(`INSERT INTO ${s}.link_aliases (project_id, affiliate_id, alias, created_at) VALUES ('proj_old', $1, 'bob-older', '2026-03-01T00:00:00Z')`, [bob])
        expect((await program.links.resolve('BOB-OLDER'))?.link).toMatchObject({ affiliateId: bob, key: 'bob-older', destination: null })
        const created = await program.links.create({ affiliate: ann, key: 'ann-new', destination: 'https://shop.example/' })
        const found = await exec(
          `SELECT id FROM ${s}.affiliates WHERE id = coalesce((SELECT id FROM ${s}.affiliates WHERE project_id = $1 AND lower(referral_code) = lower($2)),
             (SELECT affiliate_id FROM ${s}.link_aliases WHERE project_id = $1 AND lower(alias) = lower($2)))`,
          ['proj_old', created.key],
        )
        expect(found.map((row) => Number(row.id))).toEqual([ann])
      } finally {
        await storage.close()
      }
    } finally {
      await cleanup()
    }
  })
})
