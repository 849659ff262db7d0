// What "the same ledger" means in the provider tests: every affiliate's balances, every
// conversion by reference (who, rule, amounts, status, time), every referred user's affiliate.
// A bonus's reference names its affiliate by email: ids differ between projects of one storage.
import type { ProjectScope } from '../../../src/core/program.js'

export async function ledgerOf(program: ProjectScope) {
  const affiliates = (await program.affiliates.list({ limit: 100 })).items
  const emailOf = new Map(affiliates.map((affiliate) => [affiliate.id, affiliate.email]))
  const conversions = (await program.conversions.list({ limit: 100 })).items
    .map((c) => ({
      reference: c.reference?.replace(/^bonus:(\d+):/, (_, id: string) => `bonus:${emailOf.get(Number(id))}:`) ?? null,
      affiliate: emailOf.get(c.affiliateId),
      customer: c.customerEmail,
      basis: c.basis,
      status: c.status,
      value: c.value,
      baseValue: c.baseValue,
      refunded: c.refundedBaseValue,
      paid: c.paid,
      at: c.createdAt.toISOString(),
    }))
    .sort((a, b) => String(a.reference).localeCompare(String(b.reference)))
  const referrals = (await program.referrals.list({ limit: 100 })).items
    .map((r) => ({ email: r.email, affiliate: r.affiliateEmail }))
    .sort((a, b) => a.email.localeCompare(b.email))
  const balances = affiliates.map((a) => ({ email: a.email, ...a.earnings })).sort((a, b) => a.email.localeCompare(b.email))
  return { balances, conversions, referrals }
}

/** Every received event's id and status, sorted (all pages). */
export async function eventStatusesOf(program: ProjectScope): Promise<string[]> {
  const statuses: string[] = []
  for (let offset = 0; ; offset += 100) {
    const page = await program.providerEvents.list({ limit: 100, offset })
    statuses.push(...page.items.map((event) => `${event.eventId} ${event.status}`))
    if (page.items.length < 100) break
  }
  return statuses.sort()
}

/** One affiliate's balances, as the scenario tests write them by hand. */
export async function balancesOf(program: ProjectScope, email: string) {
  const { earnings } = await program.affiliates.get(email)
  return { total: earnings.total, paid: earnings.paid, unpaid: earnings.unpaid, credit: earnings.credit }
}

/** A deterministic random source in [0, 1) (mulberry32), so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A deterministic shuffle, so a failing order can be replayed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed)
  const copy = [...items]
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1))
    ;[copy[index], copy[other]] = [copy[other]!, copy[index]!]
  }
  return copy
}
