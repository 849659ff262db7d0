// The conformance suite against PGlite (in memory).
import { pgliteStorage } from '../src/adapters/pglite/index.js'
import { runStorageConformance } from './conformance/index.js'

runStorageConformance({
  name: 'pglite',
  setup: async () => {
    const storage = pgliteStorage()
    return { storage, cleanup: () => storage.close() }
  },
})
