// The in-memory repositories of the plain entities: projects, API keys, affiliates, referrals,
// coupons, links, clicks, payouts, payout requests, the ledger and webhook endpoints: each its table
// (entity-table.ts) and the statements of its own. Every write goes through a Table, which records
// its inverse in the running transaction's undo log.
import {
  affiliateRules,
  apiKeyRules,
  clickRules,
  couponRules,
  ledgerRules,
  linkRules,
  payoutRequestRules,
  payoutRules,
  referralRules,
  webhookEndpointRules,
} from '../../../core/ports/entity-filters.js'
import type {
  AffiliateRepository,
  ApiKeyRepository,
  ClickRepository,
  CouponRepository,
  LedgerRepository,
  LinkRepository,
  PayoutRepository,
  PayoutRequestRepository,
  ProjectRepository,
  ReferralRepository,
  WebhookEndpointRepository,
} from '../../../core/ports/storage.js'
import { UniqueViolation } from '../../../core/ports/storage.js'
import type { AffiliateTotals } from '../../../core/model/types.js'
import { memoryEntityTable } from '../entity-table.js'
import { found, inProject, patchRow, setMapEntry, withTotals, type MemoryState } from '../state.js'
import type { UndoLog } from '../table.js'

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
    ...memoryEntityTable(state.apiKeys, apiKeyRules, log),
    async findByHash(hash) {
      return found(state.apiKeys.findUnique('api_key_hash', hash))
    },
  }
}

export function affiliateRepository(state: MemoryState, log: UndoLog): AffiliateRepository {
  return {
    ...memoryEntityTable(state.affiliates, affiliateRules, log),
    async getByCode(projectId, code) {
      const key = `${projectId}|${code.toLowerCase()}`
      const link = state.links.findUnique('link_key', key)
      return found(state.affiliates.findUnique('affiliate_referral_code', key) ?? (link && state.affiliates.get(link.affiliateId)))
    },
    async insertMany(affiliates) {
      return affiliates.map((affiliate) => {
        const email = state.affiliates.findUnique('affiliate_email', `${affiliate.projectId}|${affiliate.email}`)
        const code = state.affiliates.findUnique('affiliate_referral_code', `${affiliate.projectId}|${affiliate.referralCode.toLowerCase()}`)
        return email || code ? null : state.affiliates.insert(affiliate, log)
      })
    },
    async takenCodes(projectId, codes) {
      const key = (code: string) => `${projectId}|${code.toLowerCase()}`
      return new Set(codes.filter((code) => state.affiliates.findUnique('affiliate_referral_code', key(code)) || state.links.findUnique('link_key', key(code))).map((code) => code.toLowerCase()))
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
      for (const row of state.links.group('affiliate', key)) state.links.remove(row.id, log)
      for (const row of state.ledger.group('affiliate', key)) state.ledger.remove(row.id, log)
      for (const row of state.payoutRequests.group('affiliate', key)) state.payoutRequests.remove(row.id, log)
      for (const row of state.referrals.group('affiliate', key)) state.referrals.replace({ ...row, affiliateId: null }, log)
      for (const row of state.affiliates.group('project', projectId)) {
        if (row.parentId === id) state.affiliates.replace({ ...row, parentId: null }, log)
      }
      return state.affiliates.remove(id, log)
    },
  }
}

export function linkRepository(state: MemoryState, log: UndoLog): LinkRepository {
  return {
    ...memoryEntityTable(state.links, linkRules, log),
    async resolve(projectId, token) {
      const key = `${projectId}|${token.toLowerCase()}`
      const coded = state.affiliates.findUnique('affiliate_referral_code', key)
      if (coded) return { affiliate: coded, link: null }
      const link = state.links.findUnique('link_key', key)
      const affiliate = link && state.affiliates.get(link.affiliateId)
      return link && affiliate ? { affiliate, link } : null
    },
  }
}

export function referralRepository(state: MemoryState, log: UndoLog): ReferralRepository {
  return {
    ...memoryEntityTable(state.referrals, referralRules, log),
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
  }
}

export function couponRepository(state: MemoryState, log: UndoLog): CouponRepository {
  return memoryEntityTable(state.coupons, couponRules, log)
}

export function clickRepository(state: MemoryState, log: UndoLog): ClickRepository {
  return memoryEntityTable(state.clicks, clickRules, log)
}

export function payoutRepository(state: MemoryState, log: UndoLog): PayoutRepository {
  return {
    ...memoryEntityTable(state.payouts, payoutRules, log),
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
  return memoryEntityTable(state.payoutRequests, payoutRequestRules, log)
}

export function ledgerRepository(state: MemoryState, log: UndoLog): LedgerRepository {
  return {
    ...memoryEntityTable(state.ledger, ledgerRules, log),
    async releasing(projectId, { after, upTo }) {
      return state.ledger
        .group('project', projectId)
        .filter((row) => row.holdUntil !== null && row.holdUntil > after && row.holdUntil <= upTo && row.createdAt < row.holdUntil)
        .sort((a, b) => a.holdUntil!.getTime() - b.holdUntil!.getTime() || a.id - b.id)
    },
  }
}

export function webhookEndpointRepository(state: MemoryState, log: UndoLog, materializeOutbox: () => void): WebhookEndpointRepository {
  const table = memoryEntityTable(state.endpoints, webhookEndpointRules, log)
  return {
    ...table,
    async insert(endpoint) {
      // Events recorded before the change keep the endpoints of when they were recorded.
      materializeOutbox()
      return table.insert(endpoint)
    },
    async update(projectId, id, patch, expected) {
      materializeOutbox()
      return table.update(projectId, id, patch, expected)
    },
    async updateAll(projectId, filter, patch) {
      materializeOutbox()
      return table.updateAll(projectId, filter, patch)
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
