// memoryStorage(): the whole storage port in process memory, for tests and prototypes.
// One async mutex serializes transactions; an undo log rolls back a transaction that throws.
import type {
  AffiliateRepository,
  ApiKeyRepository,
  ClickRepository,
  ConversionRepository,
  CouponRepository,
  IdempotencyRepository,
  NewEvent,
  OutboxRepository,
  PayoutRepository,
  ProjectRepository,
  RateLimitStore,
  ReferralRepository,
  StoragePort,
  StorageTx,
  WebhookEndpointRepository,
} from '../core/storage.js'
import { UniqueViolation } from '../core/storage.js'
import type {
  Affiliate,
  AffiliateTotals,
  ApiKeyRecord,
  Click,
  Conversion,
  Coupon,
  Delivery,
  DeliveryAttempt,
  IdempotencyRecord,
  Payout,
  Project,
  Referral,
  WebhookEndpoint,
  WebhookEvent,
} from '../core/types.js'
import { newestFirstPage, Table, type UndoLog } from './memory/table.js'

class MemoryState {
  projects = new Map<string, Project>()
  apiKeys = new Table<ApiKeyRecord>([{ name: 'api_key_hash', key: (row) => row.hash }])
  affiliates = new Table<Affiliate>(
    [
      { name: 'affiliate_email', key: (row) => `${row.projectId}|${row.email}` },
      { name: 'affiliate_referral_code', key: (row) => `${row.projectId}|${row.referralCode.toLowerCase()}` },
    ],
    { project: (row) => row.projectId },
    freezeAffiliate,
  )
  referrals = new Table<Referral>([{ name: 'referral_email', key: (row) => `${row.projectId}|${row.email}` }], {
    project: (row) => row.projectId,
    affiliate: (row) => row.affiliateId,
  })
  conversions = new Table<Conversion>(
    [{ name: 'conversion_reference', key: (row) => (row.reference === null ? null : `${row.projectId}|${row.reference}`) }],
    {
      project: (row) => row.projectId,
      affiliate: (row) => row.affiliateId,
      // Unpaid earning conversions, and the subset created with a hold: balances and payouts
      // read only these, so their cost does not grow with paid or hold-free history.
      unpaidActive: (row) => (row.status === 'active' && !row.paid ? row.affiliateId : null),
      unpaidWithHold: (row) => (row.status === 'active' && !row.paid && row.holdUntil > row.createdAt ? row.affiliateId : null),
    },
  )
  coupons = new Table<Coupon>([{ name: 'coupon_code', key: (row) => `${row.projectId}|${row.code.toLowerCase()}` }], {
    project: (row) => row.projectId,
    affiliate: (row) => row.affiliateId,
  })
  clicks = new Table<Click>([], { affiliate: (row) => row.affiliateId })
  payouts = new Table<Payout>([], { project: (row) => row.projectId, affiliate: (row) => row.affiliateId })
  endpoints = new Table<WebhookEndpoint>([], { project: (row) => row.projectId })
  events = new Table<WebhookEvent>()
  deliveries = new Table<Delivery>([], { project: (row) => row.projectId, endpoint: (row) => row.endpointId })
  attempts = new Table<DeliveryAttempt>([], { delivery: (row) => row.deliveryId })
  /** Events recorded but not yet stored as rows (see materializeOutbox). */
  fanout: Array<{ event: NewEvent; endpointIds: number[] }> = []
  idempotency = new Map<string, IdempotencyRecord>()
  rateLimits = new Map<string, number>()
}

/** The event's fields read one by one: its body may be a getter that spreading would drop. */
const eventRow = (event: NewEvent): Omit<WebhookEvent, 'id'> => ({
  projectId: event.projectId,
  type: event.type,
  body: event.body,
  createdAt: event.createdAt,
})

// Rows are frozen when stored, so reads hand them out without copying.
const found = <T>(row: T | undefined): T | null => row ?? null
const freezeAffiliate = (row: Affiliate): Affiliate => {
  Object.freeze(row.totals)
  return Object.freeze(row)
}
const inProject = <T extends { projectId: string }>(row: T | undefined, projectId: string): T | undefined =>
  row && row.projectId === projectId ? row : undefined

function setMapEntry<K, V>(map: Map<K, V>, key: K, value: V | undefined, log: UndoLog): void {
  const previous = map.get(key)
  if (value === undefined) map.delete(key)
  else map.set(key, value)
  log.push(() => (previous === undefined ? map.delete(key) : map.set(key, previous)))
}

/** The undo log of the transaction running now (transactions never overlap: one mutex). */
interface CurrentLog {
  entries: UndoLog
}

function repositories(state: MemoryState, current: CurrentLog): StorageTx {
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
      state.affiliates.replaceUnindexed({ ...existing, totals: next }, log)
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
      let amount = 0n
      let nextReleaseAt: Date | null = null
      for (const row of unpaid('unpaidWithHold', projectId, affiliateId)) {
        if (row.holdUntil <= now) continue
        amount += row.value
        if (nextReleaseAt === null || row.holdUntil < nextReleaseAt) nextReleaseAt = row.holdUntil
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
          (code === undefined || row.code.toLowerCase() === code),
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

  /** Stores the noted events and one pending delivery per endpoint each (see enqueue). */
  const materializeOutbox = () => {
    if (state.fanout.length === 0) return
    const pending = state.fanout
    state.fanout = []
    log.push(() => {
      state.fanout = pending
    })
    for (const { event, endpointIds } of pending) {
      const stored = state.events.insert(eventRow(event), log)
      for (const endpointId of endpointIds) {
        state.deliveries.insert(
          {
            projectId: event.projectId,
            eventId: stored.id,
            endpointId,
            eventType: event.type,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: event.createdAt,
            leaseUntil: null,
            lastStatusCode: null,
            createdAt: event.createdAt,
            updatedAt: event.createdAt,
          },
          log,
        )
      }
    }
  }

  const outbox: OutboxRepository = {
    // Recording only notes the event and its endpoints; rows (and the serialized body) are made
    // by the first outbox read, in event order, so a create pays little for its webhooks.
    async enqueue(event) {
      const endpointIds: number[] = []
      for (const endpoint of state.endpoints.group('project', event.projectId)) {
        if (endpoint.active && endpoint.events.includes(event.type)) endpointIds.push(endpoint.id)
      }
      if (endpointIds.length === 0) return
      state.fanout.push({ event, endpointIds })
      log.push(() => state.fanout.pop())
    },
    async claim({ now, limit, leaseMs }) {
      materializeOutbox()
      // One pass keeping the `limit` earliest due rows (a full sort per claim is quadratic over a drain).
      const at = now.getTime()
      const due: Delivery[] = []
      const key = (row: Delivery) => row.nextAttemptAt?.getTime() ?? 0
      const before = (a: Delivery, b: Delivery) => key(a) - key(b) || a.id - b.id
      for (const row of state.deliveries.rows.values()) {
        const ready =
          (row.status === 'pending' && row.nextAttemptAt !== null && row.nextAttemptAt.getTime() <= at) ||
          (row.status === 'delivering' && row.leaseUntil !== null && row.leaseUntil.getTime() <= at)
        if (!ready || limit <= 0) continue
        if (due.length === limit && before(row, due[due.length - 1]!) >= 0) continue
        let index = due.length
        while (index > 0 && before(row, due[index - 1]!) < 0) index--
        due.splice(index, 0, row)
        if (due.length > limit) due.pop()
      }
      return due.map((row) => {
        const delivery = { ...row, status: 'delivering' as const, leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now }
        state.deliveries.replaceUnindexed(delivery, log)
        return {
          delivery,
          event: state.events.get(row.eventId)!,
          endpoint: state.endpoints.get(row.endpointId)!,
        }
      })
    },
    async recordAttempt({ deliveryId, attempt, status, nextAttemptAt }) {
      const existing = state.deliveries.get(deliveryId)
      if (!existing) return null
      state.attempts.insert({ ...attempt, deliveryId, projectId: existing.projectId }, log)
      const updated: Delivery = {
        ...existing,
        status,
        nextAttemptAt,
        attempts: existing.attempts + 1,
        leaseUntil: null,
        lastStatusCode: attempt.statusCode,
        updatedAt: attempt.attemptedAt,
      }
      state.deliveries.replaceUnindexed(updated, log)
      return updated
    },
    async getDelivery(projectId, id) {
      materializeOutbox()
      return found(inProject(state.deliveries.get(id), projectId))
    },
    async listDeliveries(projectId, filter) {
      materializeOutbox()
      const page = newestFirstPage(
        state.deliveries.group('project', projectId),
        (row) =>
          (filter.endpointId === undefined || row.endpointId === filter.endpointId) &&
          (filter.status === undefined || row.status === filter.status) &&
          (filter.eventType === undefined || row.eventType === filter.eventType),
        filter,
      )
      return { items: page.items, total: page.total }
    },
    async listAttempts(projectId, deliveryId) {
      materializeOutbox()
      return state.attempts
        .group('delivery', deliveryId)
        .filter((row) => row.projectId === projectId)
        .sort((a, b) => a.id - b.id)
        
    },
    async requeue(projectId, id, now) {
      materializeOutbox()
      const existing = inProject(state.deliveries.get(id), projectId)
      if (!existing || existing.status === 'delivering') return false
      state.deliveries.replaceUnindexed({ ...existing, status: 'pending', nextAttemptAt: now, leaseUntil: null, updatedAt: now }, log)
      return true
    },
    async insertTestDelivery({ event, endpointId, leaseUntil }) {
      materializeOutbox()
      const endpoint = inProject(state.endpoints.get(endpointId), event.projectId)
      if (!endpoint) return null
      const stored = state.events.insert(eventRow(event), log)
      const delivery = state.deliveries.insert(
        {
          projectId: event.projectId,
          eventId: stored.id,
          endpointId,
          eventType: event.type,
          status: 'delivering',
          attempts: 0,
          nextAttemptAt: null,
          leaseUntil,
          lastStatusCode: null,
          createdAt: event.createdAt,
          updatedAt: event.createdAt,
        },
        log,
      )
      return { delivery: { ...delivery }, event: { ...stored }, endpoint: { ...endpoint } }
    },
  }

  const idempotency: IdempotencyRepository = {
    async claim(record) {
      const key = `${record.projectId}|${record.key}`
      const existing = state.idempotency.get(key)
      if (existing && existing.expiresAt > record.createdAt) return { ...existing }
      setMapEntry(state.idempotency, key, { ...record }, log)
      return null
    },
    async complete(projectId, key, response) {
      const existing = state.idempotency.get(`${projectId}|${key}`)
      if (existing) setMapEntry(state.idempotency, `${projectId}|${key}`, { ...existing, response }, log)
    },
    async release(projectId, key) {
      setMapEntry(state.idempotency, `${projectId}|${key}`, undefined, log)
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
  }
}

/**
 * Serializes async work: each run starts after the previous one settled. A run that waits longer
 * than `waitLimitMs` for its turn fails instead of waiting forever, like a database's lock wait
 * timeout: that is how a call on the root storage made inside a transaction (which could never
 * get its turn) fails loudly. Timers are armed only when the lock is busy.
 */
class Mutex {
  private tail: Promise<void> = Promise.resolve()
  private queued = 0

  constructor(private readonly waitLimitMs: number) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    const busy = this.queued > 0
    this.queued += 1
    let timer: ReturnType<typeof setTimeout> | undefined
    let expired = false
    const turn = this.tail.then(() => {
      if (timer) clearTimeout(timer)
      if (expired) return undefined as T
      return work()
    })
    this.tail = turn.then(
      () => {
        this.queued -= 1
      },
      () => {
        this.queued -= 1
      },
    )
    if (!busy) return turn
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true
        reject(new Error(LOCK_WAIT_MESSAGE(this.waitLimitMs)))
      }, this.waitLimitMs)
    })
    return Promise.race([turn, timeout])
  }
}

const LOCK_WAIT_MESSAGE = (ms: number) =>
  `memoryStorage: waited ${ms} ms for another transaction to finish; was the root storage used inside a transaction? Use the tx argument there`

/** Wraps every method of every repository so each root call runs as its own transaction. */
function rootRepositories(run: <T>(fn: (tx: StorageTx) => Promise<T>) => Promise<T>): StorageTx {
  const probe = repositories(new MemoryState(), { entries: [] })
  const root: Record<string, Record<string, unknown>> = {}
  for (const [repoName, repo] of Object.entries(probe)) {
    const wrapped: Record<string, unknown> = {}
    for (const method of Object.keys(repo)) {
      wrapped[method] = (...args: unknown[]) =>
        run((tx) => (tx[repoName as keyof StorageTx] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...args))
    }
    root[repoName] = wrapped
  }
  return root as unknown as StorageTx
}

export interface MemoryStorageOptions {
  /**
   * How long a call waits for a running transaction before failing (a root-storage call made
   * inside a transaction can never get its turn). @default 10000
   */
  lockWaitTimeoutMs?: number
}

/** In-memory storage. Data lives as long as the object; nothing is written to disk. */
export function memoryStorage(options: MemoryStorageOptions = {}): StoragePort {
  const state = new MemoryState()
  const mutex = new Mutex(options.lockWaitTimeoutMs ?? 10_000)
  const current: CurrentLog = { entries: [] }
  const repos = repositories(state, current)

  const transaction = <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> =>
    mutex.run(async () => {
      const log: UndoLog = []
      current.entries = log
      try {
        return await fn(repos)
      } catch (error) {
        for (let index = log.length - 1; index >= 0; index -= 1) log[index]!()
        throw error
      } finally {
        current.entries = []
      }
    })

  const rateLimitStore: RateLimitStore = {
    update: (key, decide) =>
      mutex.run(async () => {
        const { state: next, result } = decide(state.rateLimits.get(key) ?? null)
        state.rateLimits.set(key, next)
        return result
      }),
  }

  return {
    ...rootRepositories(transaction),
    transaction,
    rateLimitStore: () => rateLimitStore,
    close: async () => {},
  }
}
