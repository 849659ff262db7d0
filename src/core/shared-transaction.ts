// One transaction several use-cases share: inside run(fn), every use-case of the program joins
// fn's transaction (its storage.transaction runs on the same tx, its root repository calls too),
// so what they all write commits together or, when fn throws, not at all. The admin console runs
// each action's reads, change and audit entry this way (program.transaction).
import { AsyncLocalStorage } from 'node:async_hooks'
import type { DomainStore, StorageTx } from './storage.js'

export interface SharedTransactions {
  /** The store the use-cases run on: inside run(), each of its calls joins the running transaction. */
  store: DomainStore
  /** Runs fn in one transaction of the store; inside run() already, in the running one. */
  run<T>(fn: (tx: StorageTx) => Promise<T>): Promise<T>
  /** Whether a call made now runs inside run(). */
  active(): boolean
}

export function sharedTransactions(storage: DomainStore): SharedTransactions {
  const current = new AsyncLocalStorage<StorageTx>()
  // How many run() calls are open: while none is, no call looks for one (the common case costs nothing).
  let open = 0
  const running = () => (open > 0 ? current.getStore() : undefined)
  const run = async <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> => {
    const tx = running()
    if (tx) return fn(tx)
    open += 1
    try {
      return await storage.transaction((opened) => current.run(opened, () => fn(opened)))
    } finally {
      open -= 1
      // Node 20 keeps a promise hook on while any AsyncLocalStorage is enabled, which slows every
      // await of the process (about 10 % of a memory create): off again once no transaction is open.
      if (open === 0) current.disable()
    }
  }
  // Outside run(), the storage itself; each use-case's own transaction is joined only inside one.
  const joined = <T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> => {
    const tx = running()
    return tx ? fn(tx) : storage.transaction(fn)
  }
  const store = new Proxy(storage, {
    get(target, property) {
      if (property === 'transaction') return joined
      const tx = running()
      if (tx && typeof property === 'string' && property in tx) return tx[property as keyof StorageTx]
      return Reflect.get(target, property, target)
    },
  })
  return { store, run, active: () => running() !== undefined }
}
