// The conformance suite against the in-memory adapter.
import { memoryStorage } from '../src/adapters/memory.js'
import { runStorageConformance } from './conformance/index.js'

runStorageConformance({ name: 'memory', setup: async () => ({ storage: memoryStorage() }) })
