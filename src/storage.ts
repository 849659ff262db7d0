// affiliate-kit/storage: what a storage adapter implements and stores. StoragePort, the one
// object an adapter returns, joins the ports, each defined by the side that uses it: the core's
// domain store (DomainStore, StorageTx and one repository interface per entity), the webhook
// dispatcher's outbox store, HTTP's keyed-state store, the browser pages' session store and the
// admin console's audit log, the analytics store and the clicks' partitions; UniqueViolation for unique-index conflicts, and the records the
// repositories hold. An app needs none of it beyond the root's StoragePort.
export { UniqueViolation } from './core/ports/storage.js'
export type * from './core/ports/storage.js'
export type * from './core/model/types.js'
export type { StoragePort } from './adapters/storage-port.js'
export type * from './core/ports/outbox-store.js'
export type * from './core/ports/keyed-state.js'
export type * from './core/ports/tracking-storage.js'
export type * from './core/ports/analytics.js'
export type * from './core/ports/session-store.js'
export type * from './core/ports/audit-log.js'
