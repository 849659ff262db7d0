// memoryStorage(): the whole storage port in process memory, for tests and prototypes.
// One async mutex serializes transactions; an undo log rolls back a transaction that throws.
import { mailAttemptRules } from '../../core/ports/entity-filters.js'
import type { AdapterRepositories, StoragePort } from '../storage-port.js'
import { memoryEntityTable } from './entity-table.js'
import { memoryKeyedState } from './keyed-state.js'
import { Mutex } from './mutex.js'
import { conversionRepository } from './repositories/conversions.js'
import {
  affiliateRepository,
  apiKeyRepository,
  clickRepository,
  couponRepository,
  ledgerRepository,
  linkRepository,
  payoutRepository,
  payoutRequestRepository,
  projectRepository,
  referralRepository,
  webhookEndpointRepository,
} from './repositories/entities.js'
import { outboxRepository } from './repositories/outbox.js'
import { mailRepository } from './repositories/mail.js'
import { providerEventRepository } from './repositories/provider-events.js'
import { providerPayoutRepository } from './repositories/provider-payouts.js'
import { trackingRepository } from './repositories/tracking.js'
import { analyticsRepository, dropClicksBefore } from './repositories/analytics.js'
import { memorySessionStore } from './repositories/sessions.js'
import { memoryAuditLog, type MemoryAuditLog } from './repositories/audit-log.js'
import { asJson, erasureRepository, type ScrubbedElsewhere } from './repositories/erasure.js'
import { memoryRetention } from './retention.js'
import { MemoryState, type CurrentLog } from './state.js'
import type { UndoLog } from './table.js'

function repositories(state: MemoryState, current: CurrentLog, auditLog: MemoryAuditLog, elsewhere: readonly ScrubbedElsewhere[] = []): AdapterRepositories {
  // Every write records its inverse in the running transaction's log.
  const log = { push: (undo: () => void) => current.entries.push(undo) } as UndoLog
  const { outbox, deliveries, deliveryAttempts, materializeOutbox } = outboxRepository(state, log)
  const tracking = trackingRepository(state.tracking, log)
  const affiliates = affiliateRepository(state, log)
  return {
    projects: projectRepository(state, log),
    apiKeys: apiKeyRepository(state, log),
    affiliates,
    referrals: referralRepository(state, log),
    conversions: conversionRepository(state, log, { affiliates, tracking }),
    coupons: couponRepository(state, log),
    links: linkRepository(state, log),
    clicks: clickRepository(state, log),
    payouts: payoutRepository(state, log),
    ledger: ledgerRepository(state, log),
    payoutRequests: payoutRequestRepository(state, log),
    providerPayouts: providerPayoutRepository(state, log),
    webhookEndpoints: webhookEndpointRepository(state, log, materializeOutbox),
    outbox,
    deliveries,
    deliveryAttempts,
    providerEvents: providerEventRepository(state, log),
    tracking,
    analytics: analyticsRepository(state, log),
    mail: mailRepository(state, log),
    mailAttempts: memoryEntityTable(state.mailAttempts, mailAttemptRules, log),
    erasure: erasureRepository(state, log, elsewhere),
    auditLog: auditLog.within(log),
  }
}

/** Wraps every method of every repository so each root call runs as its own transaction. */
function rootRepositories(run: <T>(fn: (tx: AdapterRepositories) => Promise<T>) => Promise<T>): AdapterRepositories {
  const probe = repositories(new MemoryState(), { entries: [] }, memoryAuditLog())
  const root: Record<string, Record<string, unknown>> = {}
  for (const [repoName, repo] of Object.entries(probe)) {
    const wrapped: Record<string, unknown> = {}
    for (const method of Object.keys(repo)) {
      wrapped[method] = (...args: unknown[]) =>
        run((tx) => (tx[repoName as keyof AdapterRepositories] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...args))
    }
    root[repoName] = wrapped
  }
  return root as unknown as AdapterRepositories
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
  const keyedState = memoryKeyedState()
  const auditLog = memoryAuditLog()
  const repos = repositories(state, current, auditLog, [keyedState, auditLog])

  const transaction = <T>(fn: (tx: AdapterRepositories) => Promise<T>): Promise<T> =>
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

  const sessions = memorySessionStore()
  const storage: StoragePort = {
    ...rootRepositories(transaction),
    transaction,
    keyedState,
    sessions,
    auditLog,
    retention: memoryRetention(state, mutex, keyedState, sessions),
    // No partitions in memory: a month is made by its first click, and dropped by deleting its clicks.
    clickPartitions: {
      prepare: async () => {},
      dropBefore: (before) => mutex.run(async () => dropClicksBefore(state.analytics, before)),
    },
    ping: async () => {},
    close: async () => {},
  }
  storedTexts.set(storage, () => asJson([state, [...state.providerLinks.values()], keyedState.storedText(), auditLog.storedText()]))
  return storage
}

const storedTexts = new WeakMap<StoragePort, () => string>()

/**
 * Every object a memory storage holds, as one JSON text: what an erasure test searches
 * (docs/privacy.md). Null for a storage that is not a memory storage.
 */
export function memoryStoredText(storage: StoragePort): string | null {
  return storedTexts.get(storage)?.() ?? null
}
