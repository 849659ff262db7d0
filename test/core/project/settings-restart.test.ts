// Project settings given at start replace the stored ones: a key removed from the config between
// two starts takes its default (also allowPrivateNetworks), over the same PGlite directory and the
// same PostgreSQL schema. projects.updateSettings replaces too. Settings changed by another program
// on the same database apply to this one's calls within settingsMaxAgeMs.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../../src/adapters/postgres/index.js'
import { createAffiliateProgram, createWebhookDispatcher, testClock, type StoragePort } from '../../../src/index.js'
import { SETTINGS_MAX_AGE_MS } from '../../../src/core/program.js'
import { settingsChanges } from '../../../src/core/rules/settings.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../../support/sql/pg-schema.js'
import { signUp, startReceiver, type Receiver } from '../../support/webhooks-helpers.js'

const FIRST_START = {
  currency: 'EUR',
  holdPeriodDays: 30,
  commission: { purchase: { type: 'fixed' as const, amount: '5.00' } },
  multiTier: { enabled: true, tier2Rate: 10 },
  subPrograms: { vip: { commission: { purchase: { type: 'percentage' as const, rate: 40 } } } },
  webhookRetryDelaysSeconds: [1, 2],
  allowPrivateNetworks: true,
}

const DEFAULTS = { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } }

let hook: Receiver | undefined
afterEach(async () => {
  await hook?.close()
  hook = undefined
})

const places: Array<{ name: string; skip?: string; make: () => Promise<{ open: () => StoragePort; cleanup: () => Promise<void> }> }> = [
  {
    name: 'PGlite directory',
    make: async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'affiliate-kit-settings-'))
      return { open: () => pgliteStorage({ dataDir }), cleanup: () => rm(dataDir, { recursive: true, force: true }) }
    },
  },
  {
    name: 'PostgreSQL schema',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    make: async () => {
      const schema = freshSchemaName()
      return { open: () => postgresStorage({ connectionString: DATABASE_URL!, schema }), cleanup: () => dropSchema(schema) }
    },
  },
]

describe.each(places)('settings removed from the config between two starts: $name', ({ skip, make }) => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup()
  })

  it.skipIf(skip !== undefined)(`take their defaults, allowPrivateNetworks included${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const place = await make()
    cleanups.push(place.cleanup)
    hook = await startReceiver()

    const first = await createAffiliateProgram({ storage: place.open(), settings: FIRST_START })
    expect(await first.settings()).toEqual(FIRST_START)
    await first.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await first.close()

    // The restart's config has no key left: every setting is its default.
    const secondStorage = place.open()
    const second = await createAffiliateProgram({ storage: secondStorage, settings: {} })
    try {
      expect(await second.settings()).toEqual(DEFAULTS)
      // Private addresses are refused again: at save time...
      await expect(second.webhooks.create({ url: hook.url, events: ['payout.created'] })).rejects.toMatchObject({ field: 'url' })
      // ...and when the endpoint saved by the first start is sent to.
      await signUp(second)
      expect(await createWebhookDispatcher({ storage: secondStorage }).dispatch()).toBe(1)
      const [delivery] = (await second.webhooks.deliveries()).items
      const [attempt] = await second.webhooks.attempts(delivery!.id)
      expect(attempt!.error).toMatch(/refused to connect to 127\.0\.0\.1/)
      expect(hook.requests).toHaveLength(0)
      // Hold period 0 and the 30 % purchase rule apply to new conversions.
      const affiliate = await second.affiliates.create({ email: 'after-restart@example.com' })
      const { conversion } = await second.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, reference: 'restart-1' })
      expect(conversion).toMatchObject({ value: '30.00', status: 'active' })
    } finally {
      await second.close()
    }

    // A start without the settings option leaves the stored settings alone.
    const third = await createAffiliateProgram({ storage: place.open() })
    expect(await third.settings()).toEqual(DEFAULTS)
    await third.close()
  }, 120_000)
})

it('projects.updateSettings replaces the settings: a key left out takes its default', async () => {
  const program = await createAffiliateProgram({ storage: memoryStorage(), settings: FIRST_START })
  const updated = await program.projects.updateSettings(program.projectId, { holdPeriodDays: 7 })
  expect(updated.settings).toEqual({ ...DEFAULTS, holdPeriodDays: 7 })
  expect(await program.settings()).toEqual({ ...DEFAULTS, holdPeriodDays: 7 })
  // Patching is read, change, write back.
  await program.projects.updateSettings(program.projectId, { ...(await program.settings()), allowPrivateNetworks: true })
  expect(await program.settings()).toEqual({ ...DEFAULTS, holdPeriodDays: 7, allowPrivateNetworks: true })
})

it('a start with the settings already stored writes nothing; changed settings are written', async () => {
  const storage = memoryStorage()
  await (await createAffiliateProgram({ storage, settings: FIRST_START })).close()
  const updates: unknown[] = []
  const update = storage.projects.update.bind(storage.projects)
  storage.projects.update = (id, patch) => (updates.push(patch), update(id, patch))
  const again = await createAffiliateProgram({ storage, settings: FIRST_START })
  expect(updates).toEqual([])
  expect(await again.settings()).toEqual(FIRST_START)
  const changed = await createAffiliateProgram({ storage, settings: { ...FIRST_START, holdPeriodDays: 7 } })
  expect(updates).toHaveLength(1)
  expect(await changed.settings()).toEqual({ ...FIRST_START, holdPeriodDays: 7 })
})

it('a start finds its project with one lookup, whether named by name or by id', async () => {
  const storage = memoryStorage()
  const first = await createAffiliateProgram({ storage })
  const other = await first.projects.create({ name: 'other' })
  const lookups: string[] = []
  const { get, getByName } = storage.projects
  storage.projects.get = (id) => (lookups.push(`id ${id}`), get.call(storage.projects, id))
  storage.projects.getByName = (name) => (lookups.push(`name ${name}`), getByName.call(storage.projects, name))
  expect((await createAffiliateProgram({ storage })).projectId).toBe(first.projectId)
  expect(lookups).toEqual(['name default'])
  lookups.length = 0
  expect((await createAffiliateProgram({ storage, project: other.id })).projectId).toBe(other.id)
  expect(lookups).toEqual([`id ${other.id}`])
  lookups.length = 0
  expect((await createAffiliateProgram({ storage, project: 'other' })).projectId).toBe(other.id)
  expect(lookups).toEqual(['name other'])
})

const sharedPlaces: Array<{ name: string; skip?: string; make: () => Promise<{ storages: [StoragePort, StoragePort]; cleanup: () => Promise<void> }> }> = [
  {
    name: 'memory (two programs on one storage)',
    make: async () => {
      const storage = memoryStorage()
      return { storages: [storage, storage], cleanup: async () => {} }
    },
  },
  {
    name: 'PostgreSQL (two storages on one schema, as two processes)',
    ...(DATABASE_URL ? {} : { skip: NO_DATABASE_REASON }),
    make: async () => {
      const schema = freshSchemaName()
      const open = () => postgresStorage({ connectionString: DATABASE_URL!, schema })
      const storages: [StoragePort, StoragePort] = [open(), open()]
      return {
        storages,
        cleanup: async () => {
          await Promise.all(storages.map((storage) => storage.close()))
          await dropSchema(schema)
        },
      }
    },
  },
]

describe.each(sharedPlaces)('settings changed by another program on the same database: $name', ({ skip, make }) => {
  it.skipIf(skip !== undefined)(`apply to this program's calls within settingsMaxAgeMs${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const { storages, cleanup } = await make()
    try {
      const rates = { commission: { purchase: { type: 'percentage' as const, rate: 50 } } }
      const writer = await createAffiliateProgram({ storage: storages[0], settings: rates })
      const clock = testClock('2026-03-01T00:00:00Z')
      const reader = await createAffiliateProgram({ storage: storages[1], clock })
      const affiliate = await reader.affiliates.create({ email: 'ann@example.com' })
      const earn = async (reference: string) =>
        (await reader.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, reference })).conversion.value
      expect(await earn('before')).toBe('50.00')

      const saved = await writer.projects.updateSettings(writer.projectId, { ...rates, commission: { purchase: { type: 'percentage', rate: 30 } }, holdPeriodDays: 7 })
      expect(saved.settingsVersion).toBe(2)
      clock.advance({ ms: SETTINGS_MAX_AGE_MS })
      const { conversion } = await reader.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 100, reference: 'after' })
      expect(conversion).toMatchObject({ value: '30.00', status: 'pending', holdUntil: new Date('2026-03-08T00:00:01Z') })
      expect(await reader.settings()).toEqual(saved.settings)
      expect((await reader.projects.get(reader.projectId)).settingsVersion).toBe(2)
    } finally {
      await cleanup()
    }
  })
})

it('a start with changed settings says what it replaced; an unchanged or settings-less start says nothing', async () => {
  const storage = memoryStorage()
  const told: unknown[] = []
  const onSettingsReplaced = (previous: unknown, saved: { settings: unknown; settingsVersion: number }) => told.push({ previous, settings: saved.settings, version: saved.settingsVersion })
  await createAffiliateProgram({ storage, settings: FIRST_START, onSettingsReplaced })
  await createAffiliateProgram({ storage, settings: FIRST_START, onSettingsReplaced })
  await createAffiliateProgram({ storage, onSettingsReplaced })
  expect(told).toEqual([])
  await createAffiliateProgram({ storage, settings: { ...FIRST_START, holdPeriodDays: 7 }, onSettingsReplaced })
  expect(told).toEqual([{ previous: FIRST_START, settings: { ...FIRST_START, holdPeriodDays: 7 }, version: 2 }])
  expect(settingsChanges(FIRST_START, { ...FIRST_START, holdPeriodDays: 7, allowPrivateNetworks: undefined as never })).toEqual([
    { key: 'holdPeriodDays', from: '30', to: '7' },
    { key: 'allowPrivateNetworks', from: 'true', to: 'unset' },
  ])
})
