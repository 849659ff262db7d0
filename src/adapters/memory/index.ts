// affiliate-kit/memory: the storage port in process memory, for tests and prototypes.
export { memoryStorage, memoryStoredText } from './storage.js'
export type { MemoryStorageOptions } from './storage.js'
