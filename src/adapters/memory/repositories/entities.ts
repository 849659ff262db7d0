// The in-memory repositories of the storage port (the outbox lives in outbox.ts). Every write
// goes through a Table, which records its inverse in the running transaction's undo log.
import type {
  AffiliateRepository,
  ApiKeyRepository,
  ClickRepository,
  ConversionRepository,
  CouponRepository,
  IdempotencyRepository,
  PayoutRepository,
  ProjectRepository,
  ReferralRepository,
  StorageTx,
  WebhookEndpointRepository,
} from '../../core/storage.js'
import { UniqueViolation } from '../../core/storage.js'
import type { AffiliateTotals, IdempotencyRecord } from '../../core/types.js'
import { outboxRepository } from './outbox.js'
import { providerEventRepository } from './provider-events.js'
import { found, inProject, setMapEntry, withTotals, type CurrentLog, type MemoryState } from './state.js'
import { newestFirstPage, type UndoLog } from './table.js'

export function repositories(state: MemoryState, current: CurrentLog): StorageTx {
  // Every write records its inverse in the running transaction's log.
  const log = {
    push: (undo: () => void) => current.entries.push(undo),
  } as UndoLog
  const projects: ProjectRepository = {
    async insert(project) {
      for (const existing of state.projects.values()) {
        if (existing.name === project.name) throw new UniqueViolation('project_name')
      }
      setMapEntry(state.projects, project.id, project, log)
      return { ...project }
    },
    async get(id) {
      return found(state.projects.get(id))
    },
    async getByName(name) {
      for (const project of state.projects.values()) if (project.name === name) return { ...project }
      return null
    },
    async update(id, patch) {
      const existing = state.projects.get(id)
      if (!existing) return null
      const updated = { ...existing, ...patch }
      setMapEntry(state.projects, id, updated, log)
      return { ...updated }
    },
  }

  const apiKeys: ApiKeyRepository = {
    async insert(key) {
      return state.apiKeys.insert(key, log)
    },
    async findByHash(hash) {
      return found(state.apiKeys.findUnique('api_key_hash', hash))
    },
    async list(projectId) {
      return [...state.apiKeys.rows.values()].filter((row) => row.projectId === projectId)
    },
    async revoke(projectId, id, at) {
      const existing = inProject(state.apiKeys.get(id), projectId)
      if (!existing || existing.revokedAt) return false
      state.apiKeys.replace({ ...existing, revokedAt: at }, log)
      return true
    },
  }

  const affiliates: AffiliateRepository = {
    async insert(affiliate) {
      return state.affiliates.insert(affiliate, log)
    },
    async get(projectId, id) {
      return found(inProject(state.affiliates.get(id), projectId))
    },
    async getByEmail(projectId, email) {
      return found(state.affiliates.findUnique('affiliate_email', `${projectId}|${email}`))
    },
    async getByCode(projectId, code) {
      return found(state.affiliates.findUnique('affiliate_referral_code', `${projectId}|${code.toLowerCase()}`))
    },
    async lockForUpdate(projectId, id) {
      return found(inProject(state.affiliates.get(id), projectId))
    },
    async update(projectId, id, patch) {
      const existing = inProject(state.affiliates.get(id), projectId)
      if (!existing) return null
      const updated = { ...existing, ...patch, totals: existing.totals }
      state.affiliates.replace(updated, log)
      return found(updated)
    },
    async adjustTotals(projectId, id, delta) {
      const existing = inProject(state.affiliates.get(id), projectId)
      if (!existing) return
      const totals = existing.totals
      const next: AffiliateTotals = {
        countedValue: totals.countedValue + (delta.countedValue ?? 0n),
        paidValue: totals.paidValue + (delta.paidValue ?? 0n),
        credit: totals.credit + (delta.credit ?? 0n),
        clicks: totals.clicks + (delta.clicks ?? 0),
        signups: totals.signups + (delta.signups ?? 0),
        purchases: totals.purchases + (delta.purchases ?? 0),
      }
      state.affiliates.replaceUnindexed(withTotals(existing, next), log)
    },
    async delete(projectId, id) {
      if (!inProject(state.affiliates.get(id), projectId)) return false
      const key = id
      for (const row of state.conversions.group('affiliate', key)) state.conversions.remove(row.id, log)
      for (const row of state.coupons.group('affiliate', key)) state.coupons.remove(row.id, log)
      for (const row of state.clicks.group('affiliate', key)) state.clicks.remove(row.id, log)
      for (const row of state.payouts.group('affiliate', key)) state.payouts.remove(row.id, log)
      for (const row of state.referrals.group('affiliate', key)) state.referrals.replace({ ...row, affiliateId: null }, log)
      for (const row of state.affiliates.group('project', projectId)) {
        if (row.parentId === id) state.affiliates.replace({ ...row, parentId: null }, log)
      }
      return state.affiliates.remove(id, log)
    },
    async list(projectId, filter) {
      const page = newestFirstPage(
        state.affiliates.group('project', projectId),
        (row) => filter.statuses === undefined || filter.statuses.includes(row.status),
        filter,
      )
      return { items: page.items, total: page.total }
    },
  }

  const referrals: ReferralRepository = {
    async insert(referral) {
      return state.referrals.insert(referral, log)
    },
    async get(projectId, id) {
      return found(inProject(state.referrals.get(id), projectId))
    },
    async getByEmail(projectId, email) {
      return found(state.referrals.findUnique('referral_email', `${projectId}|${email}`))
    },
    async update(projectId, id, patch) {
      const existing = inProject(state.referrals.get(id), projectId)
      if (!existing) return null
      const updated = { ...existing, ...patch }
      state.referrals.replace(updated, log)
      return updated
    },
    async list(projectId, filter) {
      const page = newestFirstPage(
        state.referrals.group('project', projectId),
        (row) =>
          (filter.affiliateId === undefined || row.affiliateId === filter.affiliateId) &&
          (filter.status === undefined || row.conversionStatus === filter.status),
        filter,
      )
      return { items: page.items, total: page.total }
    },
  }

  const unpaid = (group: 'unpaidActive' | 'unpaidWithHold', projectId: string, affiliateId: number) =>
    state.conversions.group(group, affiliateId).filter((row) => row.projectId === projectId)

  const conversions: ConversionRepository = {
    async insert(conversion) {
      if (conversion.reference !== null) {
        const existing = state.conversions.findUnique('conversion_reference', `${conversion.projectId}|${conversion.reference}`)
        if (existing) return { inserted: false, existing }
      }
      return { inserted: true, conversion: state.conversions.insert(conversion, log) }
    },
    async get(projectId, id) {
      return found(inProject(state.conversions.get(id), projectId))
    },
    async listChildren(projectId, parentId) {
      return state.conversions
        .group('parent', parentId)
        .filter((row) => row.projectId === projectId)
        .sort((a, b) => a.id - b.id)
    },
    async getByReference(projectId, reference) {
      return found(state.conversions.findUnique('conversion_reference', `${projectId}|${reference}`))
    },
    async update(projectId, id, patch) {
      const existing = inProject(state.conversions.get(id), projectId)
      if (!existing) return null
      const updated = { ...existing, ...patch }
      state.conversions.replace(updated, log)
      return updated
    },
    async delete(projectId, id) {
      return inProject(state.conversions.get(id), projectId) ? state.conversions.remove(id, log) : false
    },
    async list(projectId, filter) {
      const page = newestFirstPage(
        state.conversions.group('project', projectId),
        (row) =>
          (filter.type === undefined || row.type === filter.type) &&
          (filter.affiliateId === undefined || row.affiliateId === filter.affiliateId) &&
          (filter.referredUserId === undefined || row.referredUserId === filter.referredUserId) &&
          (filter.paid === undefined || row.paid === filter.paid) &&
          (filter.from === undefined || row.createdAt >= filter.from) &&
          (filter.to === undefined || row.createdAt < filter.to),
        filter,
      )
      return { items: page.items, total: page.total }
    },
    async heldSummary(projectId, affiliateId, now) {
      const at = now.getTime()
      let amount = 0n
      let nextReleaseAt: Date | null = null
      for (const row of unpaid('unpaidWithHold', projectId, affiliateId)) {
        if (row.holdUntil.getTime() <= at) continue
        amount += row.value
        if (nextReleaseAt === null || row.holdUntil.getTime() < nextReleaseAt.getTime()) nextReleaseAt = row.holdUntil
      }
      return { amount, nextReleaseAt }
    },
    async settleOldestFirst({ projectId, affiliateId, budget, now, payoutId }) {
      const eligible = unpaid('unpaidActive', projectId, affiliateId)
        .filter((row) => row.holdUntil <= now)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      let amount = 0n
      let count = 0
      for (const row of eligible) {
        if (amount + row.value > budget) break
        amount += row.value
        count += 1
        state.conversions.replace({ ...row, paid: true, paidByPayoutId: payoutId }, log)
      }
      return { count, amount }
    },
  }

  const coupons: CouponRepository = {
    async insert(coupon) {
      return state.coupons.insert(coupon, log)
    },
    async get(projectId, id) {
      return found(inProject(state.coupons.get(id), projectId))
    },
    async getByCode(projectId, code) {
      return found(state.coupons.findUnique('coupon_code', `${projectId}|${code.toLowerCase()}`))
    },
    async update(projectId, id, patch) {
      const existing = inProject(state.coupons.get(id), projectId)
      if (!existing) return null
      const updated = { ...existing, ...patch }
      state.coupons.replace(updated, log)
      return updated
    },
    async delete(projectId, id) {
      return inProject(state.coupons.get(id), projectId) ? state.coupons.remove(id, log) : false
    },
    async list(projectId, filter) {
      const code = filter.code?.toLowerCase()
      const page = newestFirstPage(
        state.coupons.group('project', projectId),
        (row) =>
          (filter.affiliateId === undefined || row.affiliateId === filter.affiliateId) &&
          (code === undefined || row.code.toLowerCase() === code) &&
          (filter.status === undefined || row.status === filter.status),
        filter,
      )
      return { items: page.items, total: page.total }
    },
  }

  const clicks: ClickRepository = {
    async insert(click) {
      return state.clicks.insert(click, log)
    },
  }

  const payouts: PayoutRepository = {
    async insert(payout) {
      return state.payouts.insert(payout, log)
    },
    async setConversionsSettled(projectId, id, count) {
      const existing = inProject(state.payouts.get(id), projectId)
      if (existing) state.payouts.replace({ ...existing, conversionsSettled: count }, log)
    },
    async get(projectId, id) {
      return found(inProject(state.payouts.get(id), projectId))
    },
    async list(projectId, filter) {
      const page = newestFirstPage(
        state.payouts.group('project', projectId),
        (row) => filter.affiliateId === undefined || row.affiliateId === filter.affiliateId,
        filter,
      )
      return { items: page.items, total: page.total }
    },
  }

  const webhookEndpoints: WebhookEndpointRepository = {
    async insert(endpoint) {
      return state.endpoints.insert(endpoint, log)
    },
    async get(projectId, id) {
      return found(inProject(state.endpoints.get(id), projectId))
    },
    async list(projectId) {
      return state.endpoints
        .group('project', projectId)
        .sort((a, b) => a.id - b.id)
        
    },
    async update(projectId, id, patch) {
      const existing = inProject(state.endpoints.get(id), projectId)
      if (!existing) return null
      const updated = { ...existing, ...patch }
      state.endpoints.replace(updated, log)
      return updated
    },
    async delete(projectId, id) {
      materializeOutbox()
      if (!inProject(state.endpoints.get(id), projectId)) return false
      for (const delivery of state.deliveries.group('endpoint', id)) {
        for (const attempt of state.attempts.group('delivery', delivery.id)) state.attempts.remove(attempt.id, log)
        state.deliveries.remove(delivery.id, log)
      }
      return state.endpoints.remove(id, log)
    },
  }
  const { outbox, materializeOutbox } = outboxRepository(state, log)

  /** Whether `claim` may take the key of `existing` (see IdempotencyRepository.claim). */
  const idempotencyKeyFree = (existing: IdempotencyRecord, claim: IdempotencyRecord): boolean =>
    existing.expiresAt <= claim.createdAt ||
    (existing.response === null && existing.fingerprint === claim.fingerprint && existing.leaseUntil <= claim.createdAt)

  /** The record of the key when it is still the claim taken at `claimedAt`. */
  const ownClaim = (projectId: string, key: string, claimedAt: Date): IdempotencyRecord | undefined => {
    const existing = state.idempotency.get(`${projectId}|${key}`)
    return existing?.createdAt.getTime() === claimedAt.getTime() ? existing : undefined
  }

  const idempotency: IdempotencyRepository = {
    async claim(record) {
      const key = `${record.projectId}|${record.key}`
      const existing = state.idempotency.get(key)
      if (existing && !idempotencyKeyFree(existing, record)) return { ...existing }
      setMapEntry(state.idempotency, key, { ...record }, log)
      return null
    },
    async renew(projectId, key, claimedAt, leaseUntil) {
      const existing = ownClaim(projectId, key, claimedAt)
      if (existing?.response === null) setMapEntry(state.idempotency, `${projectId}|${key}`, { ...existing, leaseUntil }, log)
    },
    async complete(projectId, key, claimedAt, response) {
      const existing = ownClaim(projectId, key, claimedAt)
      if (existing) setMapEntry(state.idempotency, `${projectId}|${key}`, { ...existing, response }, log)
    },
    async release(projectId, key, claimedAt) {
      if (ownClaim(projectId, key, claimedAt)) setMapEntry(state.idempotency, `${projectId}|${key}`, undefined, log)
    },
  }

  return {
    projects,
    apiKeys,
    affiliates,
    referrals,
    conversions,
    coupons,
    clicks,
    payouts,
    webhookEndpoints,
    outbox,
    idempotency,
    providerEvents: providerEventRepository(state, log),
  }
}
