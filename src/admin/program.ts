// The part of the program the console reads and writes: only public use-cases, one project; its
// transaction(fn) holds an action's reads, change and audit entry together (AdminRequest.changes).
import type { Clock } from '../core/model/clock.js'
import type { ProjectScope } from '../core/program.js'
import type { VerifiedKey } from '../core/project/keys.js'

export type AdminProgram = Pick<
  ProjectScope,
  | 'projectId'
  | 'affiliates'
  | 'applications'
  | 'conversions'
  | 'coupons'
  | 'links'
  | 'referrals'
  | 'payouts'
  | 'keys'
  | 'providerEvents'
  | 'webhooks'
  | 'mail'
  | 'stats'
  | 'analytics'
  | 'settings'
  | 'taxDetails'
  | 'personalData'
  | 'providerPayouts'
  | 'auditLog'
  | 'transaction'
> & {
  readonly clock?: Clock
  verifyApiKey(key: string): Promise<VerifiedKey | null>
}
