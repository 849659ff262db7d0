// What the importer tests compare with their hand-computed figures: an affiliate's ledger, and
// every conversion's status by its reference.
import type { AffiliateProgram } from '../../../src/index.js'

export async function ledger(target: AffiliateProgram, email: string) {
  const { earnings } = await target.affiliates.get(email)
  return { total: earnings.total, paid: earnings.paid, unpaid: earnings.unpaid }
}

export async function statuses(target: AffiliateProgram) {
  return Object.fromEntries((await target.conversions.list({ limit: 100 })).items.map((c) => [c.reference, c.status]))
}
