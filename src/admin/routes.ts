// The console's one table of pages: each URL once, with its GET page, its POST action, its
// navigation label and the name pages link with (adminPaths() builds the links of paths.ts from it;
// admin.ts routes and draws the navigation with it). Sign-in, sign-out and the assets are answered
// before it.
import { tableLinks, type PageTable } from '../web/page-table.js'
import type { AdminRequest, AdminResult } from './page.js'
import { affiliateEditPage, saveAffiliate } from './pages/affiliate-edit.js'
import { createAffiliateLink, deleteAffiliateLink } from './pages/affiliate-link-actions.js'
import { createAffiliate, newAffiliatePage } from './pages/affiliate-new.js'
import { eraseAffiliate, eraseAffiliatePage } from './pages/affiliate-erase.js'
import { affiliatesPage, changeAffiliateStatus, exportAffiliates } from './pages/affiliates.js'
import { analyticsPage, exportAnalytics } from './pages/analytics.js'
import { applicationsPage, approveApplication, rejectApplication } from './pages/applications.js'
import { auditLogPage } from './pages/audit-log.js'
import { conversionPreviewPage } from './pages/conversion-preview.js'
import { conversionPage, conversionsPage, exportConversions, refundConversion } from './pages/conversions.js'
import { changeCouponStatus, couponsPage, createCoupon } from './pages/coupons.js'
import { dashboardPage } from './pages/dashboard.js'
import { emailsPage, retryEmail } from './pages/emails.js'
import { createKey, createPublishableKey, keysPage, revokeKey } from './pages/keys.js'
import { createPortalLink } from './pages/portal-link.js'
import { exportBatch, markBatchPaid, payoutsPage, recordPayout } from './pages/payouts.js'
import { duePage } from './pages/payouts-due.js'
import { payNowPage, runPayouts } from './pages/pay-now.js'
import { providerEventsPage, replayProviderEvent } from './pages/provider-events.js'
import { decideReview, reviewPage } from './pages/review.js'
import { settingsPage } from './pages/settings.js'
import { retryDelivery, rotateSecret, sendTest, webhooksPage } from './pages/webhooks.js'
import type { AdminPaths } from './paths.js'

export const ADMIN_PAGES: PageTable<AdminRequest, AdminResult> = [
  { path: '/dashboard', name: 'dashboard', nav: 'Dashboard', page: (c) => dashboardPage(c) },
  { path: '/analytics', name: 'analytics', nav: 'Analytics', page: (c) => analyticsPage(c) },
  { path: '/analytics/export', name: 'analyticsExport', action: (c, form) => exportAnalytics(c, form) },
  { path: '/', name: 'affiliates', nav: 'Affiliates', page: (c) => affiliatesPage(c) },
  { path: '/affiliates/new', name: 'affiliateNew', page: (c) => newAffiliatePage(c), action: (c, form) => createAffiliate(c, form) },
  { path: '/affiliates/export', name: 'affiliatesExport', action: (c, form) => exportAffiliates(c, form) },
  { path: '/affiliates/:id', name: 'affiliate', page: (c, id) => affiliateEditPage(c, id), action: (c, form, id) => saveAffiliate(c, id, form) },
  { path: '/affiliates/:id/status', name: 'affiliateStatus', action: (c, form, id) => changeAffiliateStatus(c, id, form) },
  { path: '/affiliates/:id/erase', name: 'affiliateErase', page: (c, id) => eraseAffiliatePage(c, id), action: (c, form, id) => eraseAffiliate(c, id, form) },
  { path: '/affiliates/:id/links', name: 'affiliateLinks', action: (c, form, id) => createAffiliateLink(c, id, form) },
  { path: '/links/:id/delete', name: 'linkDelete', action: (c, _form, id) => deleteAffiliateLink(c, id) },
  { path: '/affiliates/:id/portal-link', name: 'affiliatePortalLink', action: (c, _form, id) => createPortalLink(c, id) },
  { path: '/applications', name: 'applications', nav: 'Applications', page: (c) => applicationsPage(c) },
  { path: '/applications/:id/approve', name: 'applicationApprove', action: (c, _form, id) => approveApplication(c, id) },
  { path: '/applications/:id/reject', name: 'applicationReject', action: (c, form, id) => rejectApplication(c, id, form) },
  { path: '/coupons', name: 'coupons', nav: 'Coupons', page: (c) => couponsPage(c), action: (c, form) => createCoupon(c, form) },
  { path: '/coupons/:id/status', name: 'couponStatus', action: (c, form, id) => changeCouponStatus(c, id, form) },
  { path: '/review', name: 'review', nav: 'Review', page: (c) => reviewPage(c), action: (c, form) => decideReview(c, form) },
  { path: '/conversions', name: 'conversions', nav: 'Conversions', page: (c) => conversionsPage(c) },
  { path: '/conversions/export', name: 'conversionsExport', action: (c, form) => exportConversions(c, form) },
  { path: '/conversions/preview', name: 'conversionPreview', page: (c) => conversionPreviewPage(c) },
  { path: '/conversions/:id', name: 'conversion', page: (c, id) => conversionPage(c, id) },
  { path: '/conversions/:id/refund', name: 'conversionRefund', action: (c, form, id) => refundConversion(c, id, form) },
  { path: '/payouts', name: 'payouts', nav: 'Payouts', page: (c) => payoutsPage(c), action: (c, form) => recordPayout(c, form) },
  { path: '/due', name: 'payoutsDue', nav: 'Due', page: (c) => duePage(c) },
  { path: '/pay-now', name: 'payNow', nav: 'Pay now', page: (c) => payNowPage(c), action: (c, form) => runPayouts(c, form) },
  { path: '/payouts/export', name: 'payoutsExport', action: (c, form) => exportBatch(c, form) },
  { path: '/payouts/batch', name: 'payoutsBatch', action: (c, form) => markBatchPaid(c, form) },
  { path: '/webhooks', name: 'webhooks', nav: 'Webhooks', page: (c) => webhooksPage(c) },
  { path: '/webhooks/deliveries/:id/retry', name: 'deliveryRetry', action: (c, _form, id) => retryDelivery(c, id) },
  { path: '/webhooks/:id/test', name: 'webhookTest', action: (c, form, id) => sendTest(c, id, form) },
  { path: '/webhooks/:id/rotate-secret', name: 'webhookRotate', action: (c, _form, id) => rotateSecret(c, id) },
  { path: '/emails', name: 'emails', nav: 'Emails', page: (c) => emailsPage(c) },
  { path: '/emails/:id/retry', name: 'emailRetry', action: (c, _form, id) => retryEmail(c, id) },
  { path: '/keys', name: 'keys', nav: 'API keys', page: (c) => keysPage(c), action: (c, form) => createKey(c, form) },
  { path: '/keys/publishable', name: 'keysPublishable', action: (c, form) => createPublishableKey(c, form) },
  { path: '/keys/:id/revoke', name: 'keyRevoke', action: (c, _form, id) => revokeKey(c, id) },
  { path: '/provider-events', name: 'providerEvents', nav: 'Provider events', page: (c) => providerEventsPage(c) },
  { path: '/provider-events/:id/replay', name: 'providerEventReplay', action: (c, _form, id) => replayProviderEvent(c, id) },
  { path: '/audit-log', name: 'auditLog', nav: 'Audit log', page: (c) => auditLogPage(c) },
  { path: '/settings', name: 'settings', nav: 'Settings', page: (c) => settingsPage(c) },
]

/** `base` is '/admin' or '' (mounted at the root); `versions` are the assets' content hashes. */
export function adminPaths(base: string, versions: { stylesheet: string; script: string }): AdminPaths {
  return {
    ...(tableLinks(ADMIN_PAGES, base) as Omit<AdminPaths, 'base' | 'signIn' | 'signOut' | 'stylesheet' | 'script'>),
    base,
    signIn: `${base}/sign-in`,
    signOut: `${base}/sign-out`,
    stylesheet: `${base}/assets/admin.css?v=${versions.stylesheet}`,
    script: `${base}/assets/admin.js?v=${versions.script}`,
  }
}
