// affiliate-kit/memory: the storage port in process memory, for tests and prototypes.
export { memoryStorage } from './storage.js'
export type { MemoryStorageOptions } from './storage.js'
