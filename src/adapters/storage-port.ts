// What every storage adapter returns: one object implementing the ports, each defined by the side
// that uses it. The core's domain store, the webhook dispatcher's outbox store, HTTP's keyed-state
// store (as `keyedState`), the browser pages' session store (as `sessions`) and the admin
// console's audit log (as `auditLog`), the mail dispatcher's mail queue (as `mail`), the pruning of what grows without bound (as `retention`)
// and the raw clicks' monthly partitions (as `clickPartitions`).
import type { DomainStore, OutboxRepository, StorageTx } from '../core/ports/storage.js'
import type { KeyedStateStore } from '../core/ports/keyed-state.js'
import type { DeliveryQueue, OutboxStore } from '../core/ports/outbox-store.js'
import type { WithSessionStore } from '../core/ports/session-store.js'
import type { WithAuditLog } from '../core/ports/audit-log.js'
import type { MailStore } from '../core/ports/mail-store.js'
import type { WithRetention } from '../core/ports/retention.js'
import type { WithClickPartitions } from '../core/ports/analytics.js'

export type StoragePort = DomainStore & OutboxStore & MailStore & { keyedState: KeyedStateStore } & WithSessionStore & WithAuditLog & WithRetention & WithClickPartitions

/** An adapter's outbox: the core's part and the dispatcher's. */
export type AdapterOutbox = OutboxRepository & DeliveryQueue

/** An adapter's repositories: the transaction's, with the whole outbox. */
export type AdapterRepositories = StorageTx & { outbox: AdapterOutbox }
