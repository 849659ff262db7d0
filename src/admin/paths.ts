// The console's URLs under its mount path, as pages link with them: the named rows of the page
// table (routes.ts, whose adminPaths() builds them), plus sign-in, sign-out and the assets.

export interface AdminPaths {
  base: string
  dashboard: string
  analytics: string
  analyticsExport: string
  affiliates: string
  affiliateNew: string
  affiliatesExport: string
  affiliate(id: number): string
  affiliateStatus(id: number): string
  affiliatePortalLink(id: number): string
  /** Posted to create a link of the affiliate. */
  affiliateLinks(id: number): string
  /** Posted to delete the link. */
  linkDelete(id: number): string
  applications: string
  applicationApprove(id: number): string
  applicationReject(id: number): string
  affiliateErase(id: number): string
  review: string
  conversions: string
  conversion(id: number): string
  conversionRefund(id: number): string
  conversionsExport: string
  conversionPreview: string
  coupons: string
  couponStatus(id: number): string
  payouts: string
  payoutsExport: string
  payoutsBatch: string
  payoutsDue: string
  payNow: string
  webhooks: string
  deliveryRetry(id: number): string
  webhookTest(id: number): string
  webhookRotate(id: number): string
  emails: string
  emailRetry(id: number): string
  keys: string
  keyRevoke(id: number): string
  keysPublishable: string
  providerEvents: string
  providerEventReplay(id: number): string
  auditLog: string
  settings: string
  signIn: string
  signOut: string
  stylesheet: string
  script: string
}
