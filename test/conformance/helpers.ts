// Helpers shared by conformance cases: snapshots of a project's state, its recorded events, and
// affiliate rows to insert through the storage port.
import { expect } from 'vitest'
import type { AffiliateProgram, EventType, StoragePort } from '../../src/index.js'
import type { Affiliate, Insert, StorageTx } from '../../src/storage.js'
import { EVENT_TYPES } from '../../src/index.js'
import { newAffiliateRow } from '../../src/core/affiliates/affiliates.js'

/** Everything a project's users can read, as JSON, to prove that a failed call changed nothing. */
export async function snapshot(program: AffiliateProgram): Promise<string> {
  const [affiliates, referrals, conversions, coupons, payouts, deliveries] = await Promise.all([
    program.affiliates.list({ limit: 100 }),
    program.referrals.list({ limit: 100 }),
    program.conversions.list({ limit: 100 }),
    program.coupons.list({ limit: 100 }),
    program.payouts.list({ limit: 200 }),
    program.webhooks.deliveries({ limit: 200 }),
  ])
  return JSON.stringify({ affiliates, referrals, conversions, coupons, payouts, deliveries })
}

/** Subscribes an endpoint to every event so the outbox keeps them. */
export async function recordAllEvents(program: AffiliateProgram): Promise<void> {
  await program.webhooks.create({ url: 'https://hooks.example.com/in', events: [...EVENT_TYPES] })
}

export interface RecordedEvent {
  type: EventType
  body: Record<string, unknown>
}

/** Claims every pending delivery of the project and returns the event bodies, oldest first. */
export async function recordedEvents(storage: StoragePort, program: AffiliateProgram): Promise<RecordedEvent[]> {
  const claimed = await storage.outbox.claim({ now: new Date('2999-01-01'), limit: 10_000, leaseMs: 60_000 })
  return claimed
    .filter((item) => item.delivery.projectId === program.projectId)
    .sort((a, b) => a.event.id - b.event.id)
    .map((item) => ({ type: item.event.type, body: JSON.parse(item.event.body) as Record<string, unknown> }))
}

export async function expectError(promise: Promise<unknown>, code: string, field?: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error, `expected an error with code ${code}`).toMatchObject({ code, ...(field ? { field } : {}) })
}

/** A new affiliate row for `storage.affiliates.insert`: active, no totals, code from the email. */
export function affiliateRow(projectId: string, email: string, extra: Partial<Insert<Affiliate>> = {}): Insert<Affiliate> {
  return { ...newAffiliateRow({ projectId, email, status: 'active', createdAt: new Date() }), referralCode: email.split('@')[0]!, ...extra }
}

/** A manual retry of a delivery, as program.webhooks.retry makes it: pending, due at `at`, unless being sent. True when requeued. */
export async function requeue(storage: Pick<StorageTx, 'deliveries'>, projectId: string, id: number, at: Date): Promise<boolean> {
  const due = { status: 'pending', nextAttemptAt: at, leaseUntil: null, updatedAt: at } as const
  return (await storage.deliveries.update(projectId, id, due, { statusOtherThan: 'delivering' })) !== null
}
