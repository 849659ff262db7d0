// The portal's URLs under its mount path, as pages link with them: the named rows of the page
// table (routes.ts), plus sign-in, sign-out and the assets.
import { tableLinks } from '../web/page-table.js'
import { PORTAL_PAGES, PORTAL_PUBLIC_PAGES } from './routes.js'

export interface PortalPaths {
  base: string
  overview: string
  conversions: string
  conversion(id: number): string
  payouts: string
  /** Posted to start Stripe Connect onboarding. */
  stripeConnect: string
  settings: string
  tax: string
  apply: string
  /** The application page of a sub-program. */
  applyGroup(slug: string): string
  signIn: string
  signInEmail: string
  signOut: string
  stylesheet: string
  script: string
}

/** `base` is '/portal' or '' (mounted at the root); `versions` are the assets' content hashes. */
export function portalPaths(base: string, versions: { stylesheet: string; script: string }): PortalPaths {
  return {
    ...(tableLinks(PORTAL_PAGES, base) as Pick<PortalPaths, 'overview' | 'conversions' | 'conversion' | 'payouts' | 'stripeConnect' | 'settings' | 'tax'>),
    ...(tableLinks(PORTAL_PUBLIC_PAGES, base) as unknown as Pick<PortalPaths, 'apply' | 'applyGroup'>),
    base,
    signIn: `${base}/sign-in`,
    signInEmail: `${base}/sign-in/email`,
    signOut: `${base}/sign-out`,
    stylesheet: `${base}/assets/portal.css?v=${versions.stylesheet}`,
    script: `${base}/assets/portal.js?v=${versions.script}`,
  }
}
