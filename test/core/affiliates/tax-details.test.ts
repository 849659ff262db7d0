// Tax details (docs/tax-details.md) on PGlite and PostgreSQL: the raw rows never hold a tax id in
// plain text; the year-end CSV is the one place it is whole; a wrong or missing key fails loudly,
// naming the key id and not the data, and changes nothing; rotation re-encrypts under the new key;
// with payouts.requireTaxDetails an affiliate without tax details is not paid.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { createHandler } from '../../../src/http/index.js'
import { createAffiliateProgram, EVENT_TYPES, testClock, type StoragePort } from '../../../src/index.js'
import type { TaxIdKeys } from '../../../src/core/model/tax-id-cipher.js'
import { tempDirs } from '../../support/cli/temp-dirs.js'
import { caller } from '../../support/http/helpers.js'
import { migratedDataDir } from '../../support/pglite-template.js'
import { DATABASE_URL, freshPostgresStorage, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { sqlStoredText } from '../../support/sql/stored-text.js'

const tempDir = tempDirs('affiliate-kit-tax')
const key = () => randomBytes(32).toString('base64')
const K1: TaxIdKeys = { current: { id: 'k1', key: key() } }
const TAX_ID = '123-45-6789'
const DIGITS = '123456789'

interface Database {
  storage: StoragePort
  storedText(): Promise<string>
  close(): Promise<void>
}

const databases: Array<{ name: string; skip?: string; open(): Promise<Database> }> = [
  {
    name: 'pglite',
    async open() {
      const db = new PGlite(migratedDataDir(join(tempDir(), 'data')))
      const storage = pgliteStorage({ db })
      return {
        storage,
        storedText: () => sqlStoredText(async (text) => (await db.query(text)).rows as Array<Record<string, unknown>>, 'affiliate_kit'),
        close: async () => {
          await storage.close()
          await db.close()
        },
      }
    },
  },
  {
    name: 'postgres',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    async open() {
      const fresh = freshPostgresStorage()
      return {
        storage: fresh.storage,
        async storedText() {
          const client = new pg.Client({ connectionString: DATABASE_URL })
          await client.connect()
          try {
            return await sqlStoredText(async (text) => (await client.query(text)).rows, fresh.schema)
          } finally {
            await client.end()
          }
        },
        close: fresh.cleanup,
      }
    },
  },
]

for (const database of databases) {
  const suite = database.skip ? describe.skip : describe
  suite(`tax details on ${database.name}`, () => {
    let db: Database
    beforeAll(async () => {
      db = await database.open()
    })
    afterAll(async () => db?.close())

    let projects = 0
    async function program(taxIdKeys: TaxIdKeys | undefined, project?: string, settings?: object) {
      projects += 1
      return createAffiliateProgram({
        storage: db.storage,
        clock: testClock('2026-03-01T00:00:00Z'),
        project: project ?? `tax-${projects}`,
        ...(taxIdKeys ? { taxIdKeys } : {}),
        ...(settings ? { settings } : {}),
      })
    }

    it('stores the tax id only encrypted, shows its last four, and writes it whole only in the year-end CSV', async () => {
      const owner = await program(K1)
      // Every event kept in the outbox: their stored bodies are read below too.
      await owner.webhooks.create({ url: 'https://hooks.example.com/in', events: [...EVENT_TYPES] })
      const ann = await owner.affiliates.create({ email: 'ann@example.com', name: 'Ann' })
      const view = await owner.taxDetails.set(ann.id, { legalName: 'Ann Example', country: 'us', formType: 'W-9', taxId: TAX_ID })
      expect(view).toMatchObject({ legalName: 'Ann Example', country: 'US', formType: 'W-9', taxIdMasked: '****6789' })
      const text = await db.storedText()
      expect(text).toContain('Ann Example')
      expect(text).not.toContain(DIGITS)
      expect(text).not.toContain(TAX_ID)
      expect(text).toMatch(/"taxId": ?"v1\.k1\./)

      await owner.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: '1000.00' })
      await owner.payouts.create({ affiliateId: ann.id, amount: '120.00', paymentDate: '2026-02-10T00:00:00Z' })
      await owner.payouts.create({ affiliateId: ann.id, amount: '30.50', paymentDate: '2026-03-01T00:00:00Z' })
      await owner.payouts.create({ affiliateId: ann.id, amount: '5.00', paymentDate: '2025-12-31T23:59:59Z' })
      const { key: apiKey } = await owner.keys.create({ name: 'tax', scopes: ['payouts:read'] })
      const call = caller(createHandler(owner, { rateLimit: false }), apiKey)
      const csv = await call('GET', '/payouts/tax-summary?year=2026')
      expect(csv.status).toBe(200)
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect(csv.text).toBe(
        'affiliate_id,email,legal_name,country,form_type,tax_id,total_paid,currency,payouts\r\n' + `${ann.id},ann@example.com,Ann Example,US,W-9,${DIGITS},150.50,USD,2\r\n`,
      )
      expect((await call('GET', '/payouts/tax-summary')).status).toBe(400)
      expect((await call('GET', '/payouts/tax-summary?year=20x6')).status).toBe(400)
      // Every other answer shows it masked.
      const exported = await caller(createHandler(owner, { rateLimit: false }), (await owner.keys.create({ name: 'all' })).key)('GET', '/affiliates/ann@example.com/export')
      expect(exported.body.data.tax_details).toMatchObject({ tax_id: '****6789', form_type: 'W-9' })
      expect(exported.text).not.toContain(DIGITS)
      // And the stored rows still hold no plain tax id after all of it (webhook bodies of the payouts included).
      const after = await db.storedText()
      expect(after).toContain('webhook_events.body')
      expect(after).not.toContain(DIGITS)
    })

    it('a wrong key fails loudly, naming the key id and not the data, and changes nothing', async () => {
      const owner = await program(K1)
      const bob = await owner.affiliates.create({ email: 'bob@example.com' })
      await owner.taxDetails.set(bob.id, { legalName: 'Bob Example', country: 'DE', formType: 'W-8BEN', taxId: 'DE 123 456 789 0' })
      await owner.conversions.create({ type: 'purchase', affiliateId: bob.id, baseValue: '100.00' })
      await owner.payouts.create({ affiliateId: bob.id, amount: '10.00' })
      // What a failed call could have changed: the affiliates' rows (tax details) and the payouts.
      const rows = async () => (await db.storedText()).split('\n').filter((line) => /^(affiliates|payouts)\./.test(line)).join('\n')
      const before = await rows()

      const wrongBytes = await program({ current: { id: 'k1', key: key() } }, owner.projectId)
      const error = await wrongBytes.taxDetails.summary(2026).catch((caught: unknown) => caught)
      expect(error).toMatchObject({ name: 'TaxIdKeyError', keyId: 'k1', code: 'conflict' })
      expect(String((error as Error).message)).toMatch(/key k1/)
      expect(String((error as Error).message)).not.toMatch(/1234567890|Bob/)
      await expect(wrongBytes.taxDetails.reencrypt()).rejects.toMatchObject({ name: 'TaxIdKeyError', keyId: 'k1' })

      const otherKey = await program({ current: { id: 'k2', key: key() } }, owner.projectId)
      await expect(otherKey.taxDetails.reencrypt()).rejects.toThrow(/encrypted with key k1, which is not among the configured tax id keys/)
      const { key: apiKey } = await otherKey.keys.create({ name: 'tax' })
      const answer = await caller(createHandler(otherKey, { rateLimit: false }), apiKey)('GET', '/payouts/tax-summary?year=2026')
      expect(answer.status).toBe(409)
      expect(answer.body.error).toMatch(/key k1/)

      const noKey = await program(undefined, owner.projectId)
      await expect(noKey.taxDetails.set(bob.id, { legalName: 'B', country: 'DE', formType: 'W-8BEN', taxId: '99999999' })).rejects.toThrow(/no tax id encryption key is configured/)
      expect(await rows()).toBe(before)
      // Reading the masked details needs no key.
      expect(await noKey.taxDetails.get(bob.id)).toMatchObject({ taxIdMasked: '****7890' })
    })

    it('rotation: the new key first and the old one kept, reencrypt moves every tax id to the new key', async () => {
      const old = await program(K1)
      const cy = await old.affiliates.create({ email: 'cy@example.com' })
      await old.taxDetails.set(cy.id, { legalName: 'Cy', country: 'US', formType: 'W-9', taxId: '987654321' })
      const rotated: TaxIdKeys = { current: { id: 'k2', key: key() }, previous: [K1.current] }
      const both = await program(rotated, old.projectId)
      expect(await both.taxDetails.reencrypt()).toEqual({ reencrypted: 1, unchanged: 0 })
      expect(await both.taxDetails.reencrypt()).toEqual({ reencrypted: 0, unchanged: 1 })
      const onlyNew = await program({ current: rotated.current }, old.projectId)
      await onlyNew.conversions.create({ type: 'purchase', affiliateId: cy.id, baseValue: '10.00' })
      await onlyNew.payouts.create({ affiliateId: cy.id, amount: '1.00' })
      expect((await onlyNew.taxDetails.summary(2026))[0]).toMatchObject({ taxId: '987654321', totalPaid: '1.00' })
      await expect(old.taxDetails.summary(2026)).rejects.toMatchObject({ keyId: 'k2' })
    })

    it('with payouts.requireTaxDetails an affiliate without tax details is refused with 409, and paid once they are on file', async () => {
      const owner = await program(K1, undefined, { payouts: { requireTaxDetails: true } })
      const dee = await owner.affiliates.create({ email: 'dee@example.com' })
      await owner.conversions.create({ type: 'purchase', affiliateId: dee.id, baseValue: '100.00' })
      const { key: apiKey } = await owner.keys.create({ name: 'pay' })
      const call = caller(createHandler(owner, { rateLimit: false }), apiKey)
      const refused = await call('POST', '/payouts', { affiliate_id: dee.id, amount: 10 })
      expect(refused.status).toBe(409)
      expect(refused.body.error).toBe('dee@example.com has no tax details on file, and this program requires them before paying (payouts.requireTaxDetails)')
      expect((await owner.payouts.list()).total).toBe(0)
      await owner.taxDetails.set(dee.id, { legalName: 'Dee', country: 'US', formType: 'W-9', taxId: '111223333' })
      expect((await call('POST', '/payouts', { affiliate_id: dee.id, amount: 10 })).status).toBe(201)
    })

    it('refuses tax details that do not fit the form, changing nothing', async () => {
      const owner = await program(K1)
      const eve = await owner.affiliates.create({ email: 'eve@example.com' })
      await expect(owner.taxDetails.set(eve.id, { legalName: 'Eve', country: 'FR', formType: 'W-9', taxId: '123456789' })).rejects.toMatchObject({ code: 'invalid_request', field: 'formType' })
      await expect(owner.taxDetails.set(eve.id, { legalName: 'Eve', country: 'US', formType: 'W-9', taxId: '12345' })).rejects.toMatchObject({ field: 'taxId' })
      await expect(owner.taxDetails.set(eve.id, { legalName: '', country: 'US', formType: 'W-9', taxId: '123456789' })).rejects.toMatchObject({ field: 'legalName' })
      expect(await owner.taxDetails.get(eve.id)).toBeNull()
    })
  })
}

describe('GDPR routes over REST', () => {
  it('export needs affiliates:read, erase affiliates:write; the alternative shape erases by aff_ id', async () => {
    const { memoryStorage } = await import('../../../src/adapters/memory/index.js')
    const owner = await createAffiliateProgram({ storage: memoryStorage() })
    const ann = await owner.affiliates.create({ email: 'ann@example.com', name: 'Ann' })
    const reader = caller(createHandler(owner, { rateLimit: false }), (await owner.keys.create({ name: 'r', scopes: ['affiliates:read'] })).key)
    expect((await reader('GET', '/affiliates/ann@example.com/export')).body.data.affiliate.user_email).toBe('ann@example.com')
    expect((await reader('POST', '/affiliates/ann@example.com/erase')).status).toBe(403)
    expect((await owner.affiliates.get(ann.id)).email).toBe('ann@example.com')
    const writer = caller(createHandler(owner, { rateLimit: false, shape: 'alternative' }), (await owner.keys.create({ name: 'w', scopes: ['affiliates:write'] })).key)
    const erased = await writer('POST', `/affiliates/aff_${ann.id}/erase`)
    expect(erased.status).toBe(200)
    expect(erased.body.data.export.affiliate).toMatchObject({ id: `aff_${ann.id}`, email: `erased-${ann.id}@erased.invalid`, name: null })
    expect((await writer('POST', '/affiliates/ann@example.com/erase')).status).toBe(404)
  })
})

describe('tax id keys', () => {
  it('refuses a key that is not 32 bytes of base64 at start, naming it', async () => {
    const { memoryStorage } = await import('../../../src/adapters/memory/index.js')
    await expect(createAffiliateProgram({ storage: memoryStorage(), taxIdKeys: { current: { id: 'k1', key: 'c2hvcnQ=' } } })).rejects.toThrow('current key (key k1) must be 32 bytes in base64')
  })
})
