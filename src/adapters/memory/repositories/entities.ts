// The in-memory repositories of the plain entities: projects, API keys, affiliates, referrals,
// coupons, clicks, payouts and webhook endpoints. Every write goes through a Table, which records
// its inverse in the running transaction's undo log.
import type {
  AffiliateRepository,
  ApiKeyRepository,
  ClickRepository,
  CouponRepository,
  LedgerRepository,
  PayoutRepository,
  PayoutRequestRepository,
  ProjectRepository,
  ReferralRepository,
  WebhookEndpointRepository,
} from '../../../core/storage.js'
import { UniqueViolation } from '../../../core/storage.js'
import type { AffiliateTotals } from '../../../core/types.js'
import { found, inProject, patchRow, setMapEntry, withTotals, type MemoryState } from '../state.js'
import { newestFirstPage, type UndoLog } from '../table.js'

export function projectRepository(state: MemoryState, log: UndoLog): ProjectRepository {
  return {
    async insert(project) {
      for (const existing of state.projects.values()) {
        if (existing.name === project.name) throw new UniqueViolation('project_name')
      }
      const stored = { ...project, settingsVersion: 1 }
      setMapEntry(state.projects, project.id, stored, log)
      return { ...stored }
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
      const updated = { ...existing, ...patch, settingsVersion: existing.settingsVersion + (patch.settings ? 1 : 0) }
      setMapEntry(state.projects, id, updated, log)
      return { ...updated }
    },
  }
}

export function apiKeyRepository(state: MemoryState, log: UndoLog): ApiKeyRepository {
  return {
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
}

export function affiliateRepository(state: MemoryState, log: UndoLog): AffiliateRepository {
  return {
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
      const key = `${projectId}|${code.toLowerCase()}`
      const alias = state.linkAliases.findUnique('affiliate_link_alias', key)
      return found(state.affiliates.findUnique('affiliate_referral_code', key) ?? (alias && state.affiliates.get(alias.affiliateId)))
    },
    async insertAlias(projectId, affiliateId, alias, at) {
      state.linkAliases.insert({ projectId, affiliateId, alias, createdAt: at }, log)
    },
    async listAliases(projectId, affiliateId) {
      return state.linkAliases
        .group('affiliate', affiliateId)
        .filter((row) => row.projectId === projectId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
        .map((row) => row.alias)
    },
    async insertMany(affiliates) {
      return affiliates.map((affiliate) => {
        const email = state.affiliates.findUnique('affiliate_email', `${affiliate.projectId}|${affiliate.email}`)
        const code = state.affiliates.findUnique('affiliate_referral_code', `${affiliate.projectId}|${affiliate.referralCode.toLowerCase()}`)
        return email || code ? null : state.affiliates.insert(affiliate, log)
      })
    },
    async getMany(projectId, ids) {
      return ids.flatMap((id) => found(inProject(state.affiliates.get(id), projectId)) ?? [])
    },
    async takenCodes(projectId, codes) {
      const key = (code: string) => `${projectId}|${code.toLowerCase()}`
      return new Set(codes.filter((code) => state.affiliates.findUnique('affiliate_referral_code', key(code)) || state.linkAliases.findUnique('affiliate_link_alias', key(code))).map((code) => code.toLowerCase()))
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
      for (const row of state.payouts.group('affiliate', key)) {
        for (const sent of state.providerPayouts.group('payout', row.id)) state.providerPayouts.remove(sent.id, log)
        state.payouts.remove(row.id, log)
      }
      for (const row of state.linkAliases.group('affiliate', key)) state.linkAliases.remove(row.id, log)
      for (const row of state.ledger.group('affiliate', key)) state.ledger.remove(row.id, log)
      for (const row of state.payoutRequests.group('affiliate', key)) state.payoutRequests.remove(row.id, log)
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
}

export function referralRepository(state: MemoryState, log: UndoLog): ReferralRepository {
  return {
    async insert(referral) {
      return state.referrals.insert(referral, log)
    },
    async get(projectId, id) {
      return found(inProject(state.referrals.get(id), projectId))
    },
    // One transaction at a time: the read is the lock.
    async lockForUpdate(projectId, id) {
      return found(inProject(state.referrals.get(id), projectId))
    },
    async getByEmail(projectId, email) {
      return found(state.referrals.findUnique('referral_email', `${projectId}|${email}`))
    },
    async update(projectId, id, patch) {
      return patchRow(state.referrals, projectId, id, patch, log)
    },
    async markFirstPurchase(projectId, id, at, payment) {
      if (inProject(state.referrals.get(id), projectId)?.firstPurchaseAt !== null) return null
      const first = { firstPurchaseAt: at, conversionStatus: 'converted', conversionDate: at, payments: 1, lastPayment: payment.key } as const
      setMapEntry(state.referralTerms, id, payment.terms, log)
      return patchRow(state.referrals, projectId, id, first, log)
    },
    async termsOf(projectId, id) {
      return inProject(state.referrals.get(id), projectId) ? (state.referralTerms.get(id) ?? null) : null
    },
    async recordPayment(projectId, id, key) {
      const referral = inProject(state.referrals.get(id), projectId)
      if (!referral) return null
      const same = key !== null && referral.lastPayment === key
      return patchRow(state.referrals, projectId, id, { payments: referral.payments + (same ? 0 : 1), lastPayment: key }, log)!.payments
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
}

export function couponRepository(state: MemoryState, log: UndoLog): CouponRepository {
  return {
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
      return patchRow(state.coupons, projectId, id, patch, log)
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
          (filter.status === undefined || row.status === filter.status) &&
          (filter.processorCouponId === undefined || row.processorCouponId === filter.processorCouponId),
        filter,
      )
      return { items: page.items, total: page.total }
    },
  }
}

export function clickRepository(state: MemoryState, log: UndoLog): ClickRepository {
  return {
    async insert(click) {
      return state.clicks.insert(click, log)
    },
  }
}

export function payoutRepository(state: MemoryState, log: UndoLog): PayoutRepository {
  return {
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
        (row) => (filter.affiliateId === undefined || row.affiliateId === filter.affiliateId) && (filter.upTo === undefined || row.createdAt <= filter.upTo),
        filter,
      )
      return { items: page.items, total: page.total }
    },
    async paidTotals(projectId, from, to) {
      const totals = new Map<number, { affiliateId: number; amount: bigint; count: number }>()
      for (const payout of state.payouts.group('project', projectId)) {
        if (payout.status !== 'paid' || payout.paymentDate < from || payout.paymentDate >= to) continue
        const total = totals.get(payout.affiliateId) ?? { affiliateId: payout.affiliateId, amount: 0n, count: 0 }
        totals.set(payout.affiliateId, { ...total, amount: total.amount + payout.amount, count: total.count + 1 })
      }
      return [...totals.values()].sort((a, b) => a.affiliateId - b.affiliateId)
    },
  }
}

export function payoutRequestRepository(state: MemoryState, log: UndoLog): PayoutRequestRepository {
  const open = (projectId: string, affiliateId: number) =>
    state.payoutRequests.group('affiliate', affiliateId).filter((row) => row.projectId === projectId && row.status === 'open')
  return {
    async insert(request) {
      return state.payoutRequests.insert(request, log)
    },
    async findOpen(projectId, affiliateId) {
      return open(projectId, affiliateId)[0] ?? null
    },
    async markPaid(projectId, affiliateId, payoutId, at) {
      return open(projectId, affiliateId).map((row) => {
        const saved = { ...row, status: 'paid' as const, payoutId, resolvedAt: at }
        state.payoutRequests.replace(saved, log)
        return saved
      })
    },
    async list(projectId, filter) {
      const page = newestFirstPage(
        state.payoutRequests.group('project', projectId),
        (row) => (filter.affiliateId === undefined || row.affiliateId === filter.affiliateId) && (filter.status === undefined || row.status === filter.status),
        filter,
      )
      return { items: page.items, total: page.total }
    },
  }
}

export function ledgerRepository(state: MemoryState, log: UndoLog): LedgerRepository {
  return {
    async record(movement) {
      state.ledger.insert(movement, log)
    },
    async list(projectId, { affiliateId, after, upTo }) {
      const rows = affiliateId === undefined ? state.ledger.group('project', projectId) : state.ledger.group('affiliate', affiliateId)
      return rows
        .filter((row) => row.projectId === projectId && row.createdAt <= upTo && (after === undefined || row.createdAt > after))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
    },
    async releasing(projectId, { after, upTo }) {
      return state.ledger
        .group('project', projectId)
        .filter((row) => row.holdUntil !== null && row.holdUntil > after && row.holdUntil <= upTo && row.createdAt < row.holdUntil)
        .sort((a, b) => a.holdUntil!.getTime() - b.holdUntil!.getTime() || a.id - b.id)
    },
  }
}

export function webhookEndpointRepository(state: MemoryState, log: UndoLog, materializeOutbox: () => void): WebhookEndpointRepository {
  return {
    async insert(endpoint) {
      // Events recorded before the change keep the endpoints of when they were recorded.
      materializeOutbox()
      return state.endpoints.insert(endpoint, log)
    },
    async get(projectId, id) {
      return found(inProject(state.endpoints.get(id), projectId))
    },
    async list(projectId) {
      return state.endpoints.group('project', projectId).sort((a, b) => a.id - b.id)
    },
    async update(projectId, id, patch) {
      materializeOutbox()
      return patchRow(state.endpoints, projectId, id, patch, log)
    },
    async delete(projectId, id) {
      materializeOutbox()
      if (!inProject(state.endpoints.get(id), projectId)) return false
      for (const delivery of state.deliveries.group('endpoint', id)) {
        for (const attempt of state.attempts.group('delivery', delivery.id)) state.attempts.remove(attempt.id, log)
        state.deliveries.remove(delivery.id, log)
        log.push(() => state.deliveriesDue.note(delivery))
      }
      return state.endpoints.remove(id, log)
    },
  }
}
