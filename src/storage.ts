// affiliate-kit/storage: what a storage adapter implements and stores. The port (StoragePort,
// StorageTx and one repository interface per entity), UniqueViolation for unique-index conflicts,
// the records the repositories hold, and the browser pages' SessionStore port. An app needs none
// of it beyond the root's StoragePort.
export { UniqueViolation } from './core/storage.js'
export type * from './core/storage.js'
export type * from './core/types.js'
export type * from './web/session-store.js'
