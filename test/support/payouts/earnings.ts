// A program whose affiliate earned 30.00, 15.00 and 3.00 (30% of 100, 50 and 10), oldest first,
// and its balances with the ledger identity checked (docs/ledger.md "Balances").
import { expect } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import type { ProjectSettingsInput } from '../../../src/core/model/schemas.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort } from '../../../src/index.js'

export async function programWithEarnings(options: { settings: ProjectSettingsInput; email: string; paypalEmail?: string; storage?: StoragePort; project?: string }) {
  const clock = testClock()
  const project = options.project ?? `payouts-${Math.random().toString(36).slice(2)}`
  const program = await createAffiliateProgram({ storage: options.storage ?? memoryStorage(), clock, project, settings: options.settings })
  const affiliate = await program.affiliates.create({ email: options.email, ...(options.paypalEmail ? { paypalEmail: options.paypalEmail } : {}) })
  for (const baseValue of [100, 50, 10]) {
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue })
    clock.advance({ minutes: 1 })
  }
  return { program, affiliate }
}

export async function earnings(program: AffiliateProgram, id: number) {
  const { earnings } = await program.affiliates.get(id)
  const cents = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 100)
  expect(cents(earnings.total) - cents(earnings.paid)).toBe(cents(earnings.unpaid))
  return { paid: earnings.paid, unpaid: earnings.unpaid, credit: earnings.credit }
}
