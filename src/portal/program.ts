// The part of the program the portal reads and writes: only public use-cases, one project.
import type { Clock } from '../core/model/clock.js'
import type { ProjectScope } from '../core/program.js'

export type PortalProgram = Pick<ProjectScope, 'projectId' | 'affiliates' | 'applications' | 'conversions' | 'coupons' | 'links' | 'analytics' | 'payouts' | 'stats' | 'portal' | 'taxDetails' | 'settings' | 'tracking' | 'embed'> & {
  /** Read for the affiliate's Stripe connected account (portal option stripeConnect). */
  readonly providerPayouts?: Pick<ProjectScope['providerPayouts'], 'connectedAccount'>
} & { readonly clock?: Clock }
