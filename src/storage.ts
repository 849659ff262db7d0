// affiliate-kit/storage: what a storage adapter implements and stores. The port (StoragePort,
// StorageTx and one repository interface per entity), UniqueViolation for unique-index conflicts,
// and the records the repositories hold. An app needs none of it beyond the root's StoragePort.
export { UniqueViolation } from './core/storage.js'
export type * from './core/storage.js'
export type * from './core/types.js'
export type * from './core/tracking-storage.js'
export type * from './web/session-store.js'
export type * from './admin/audit-log.js'
