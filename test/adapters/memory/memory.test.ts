// The conformance suite against the in-memory adapter. A short lock wait keeps the test of a
// root-storage call inside a transaction (which can only time out) quick.
import { memoryStorage, memoryStoredText } from '../../../src/adapters/memory/index.js'
import { runStorageConformance } from '../../conformance/index.js'

runStorageConformance({
  name: 'memory',
  setup: async () => ({ storage: memoryStorage({ lockWaitTimeoutMs: 300 }) }),
  storedText: async (storage) => memoryStoredText(storage)!,
})
