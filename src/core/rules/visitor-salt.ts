// The project's secret visitor salt (docs/tracking.md) as the core reads it: it hashes visitors
// and signs referrals, and never changes once stored, so each process reads it once per project.
import type { ProjectContext } from './context.js'
import type { TransactionalStore } from '../ports/storage.js'
import { newVisitorSalt } from '../model/visitor-hash.js'

const salts = new WeakMap<TransactionalStore, Map<string, Promise<string>>>()

/** The project's salt, stored from a new random one on first use. */
export function visitorSaltOf(ctx: Pick<ProjectContext, 'storage' | 'projectId'>): Promise<string> {
  let known = salts.get(ctx.storage)
  if (!known) salts.set(ctx.storage, (known = new Map()))
  let salt = known.get(ctx.projectId)
  if (!salt) {
    salt = ctx.storage.tracking.visitorSalt(ctx.projectId, newVisitorSalt())
    known.set(ctx.projectId, salt)
    salt.catch(() => known.delete(ctx.projectId))
  }
  return salt
}
