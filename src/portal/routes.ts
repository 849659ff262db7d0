// The portal's one table of pages: each URL once, with its GET page, its POST action, its
// navigation label and the name pages link with (portalPaths() builds the links of paths.ts from
// it; portal.ts routes and draws the navigation with it). Sign-in, sign-out and the assets are
// answered before it.
import { tableLinks, type PageTable } from '../web/page-table.js'
import { applicationForm, submitApplication, type PublicRequest } from './apply.js'
import type { PageResult, SignedInRequest } from './page.js'
import { analyticsPage } from './pages/analytics.js'
import { conversionPage, conversionsPage } from './pages/conversions.js'
import { createLink, deleteLink, linkQrCode, linksPage } from './pages/links.js'
import { overviewPage } from './pages/overview.js'
import { payoutsPage, requestPayout, startStripeOnboarding } from './pages/payouts.js'
import { saveSettings, settingsPage } from './pages/settings.js'
import { saveTaxDetails, taxDetailsPage } from './pages/tax-details.js'
import type { PortalPaths } from './paths.js'

export const PORTAL_PAGES: PageTable<SignedInRequest, PageResult> = [
  { path: '/', name: 'overview', nav: 'Overview', page: (c) => overviewPage(c) },
  { path: '/analytics', name: 'analytics', nav: 'Analytics', page: (c) => analyticsPage(c) },
  { path: '/conversions', name: 'conversions', nav: 'Conversions', page: (c) => conversionsPage(c) },
  // The page itself answers an id that is not one (404), as it always has.
  { path: '/conversions/:ref', name: 'conversion', page: (c, _id, ref) => conversionPage(c, ref) },
  { path: '/links', name: 'links', nav: 'Links', page: (c) => linksPage(c), action: (c, form) => createLink(c, form) },
  { path: '/links/:id/delete', name: 'linkDelete', action: (c, _form, id) => deleteLink(c, id) },
  { path: '/links/:id/qr', name: 'linkQr', page: (c, id) => linkQrCode(c, id) },
  { path: '/payouts', name: 'payouts', nav: 'Payouts', page: (c) => payoutsPage(c), action: (c) => requestPayout(c) },
  // Posted from the Payouts page when the portal has stripeConnect (docs/payouts.md "Stripe Connect").
  { path: '/payouts/stripe', name: 'stripeConnect', action: (c) => startStripeOnboarding(c) },
  { path: '/settings', name: 'settings', nav: 'Settings', page: (c) => settingsPage(c), action: (c, form) => saveSettings(c, form) },
  // Linked from Settings when the program requires tax details (payouts.requireTaxDetails); 404 otherwise.
  { path: '/tax', name: 'tax', page: (c) => taxDetailsPage(c), action: (c, form) => saveTaxDetails(c, form) },
]

/** The signed-out pages: the application page of the program and of each sub-program (null: 404). */
export const PORTAL_PUBLIC_PAGES: PageTable<PublicRequest, Response | null> = [
  { path: '/apply', name: 'apply', page: (c) => applicationForm(c, null), action: (c, form) => submitApplication(c, form, null) },
  { path: '/apply/:ref', name: 'applyGroup', page: (c, _id, slug) => applicationForm(c, slug), action: (c, form, _id, slug) => submitApplication(c, form, slug) },
]

/** `base` is '/portal' or '' (mounted at the root); `versions` are the assets' content hashes. */
export function portalPaths(base: string, versions: { stylesheet: string; script: string }): PortalPaths {
  return {
    ...(tableLinks(PORTAL_PAGES, base) as Pick<PortalPaths, 'overview' | 'analytics' | 'conversions' | 'conversion' | 'links' | 'linkDelete' | 'linkQr' | 'payouts' | 'stripeConnect' | 'settings' | 'tax'>),
    ...(tableLinks(PORTAL_PUBLIC_PAGES, base) as unknown as Pick<PortalPaths, 'apply' | 'applyGroup'>),
    base,
    signIn: `${base}/sign-in`,
    signInEmail: `${base}/sign-in/email`,
    signOut: `${base}/sign-out`,
    stylesheet: `${base}/assets/portal.css?v=${versions.stylesheet}`,
    script: `${base}/assets/portal.js?v=${versions.script}`,
  }
}
