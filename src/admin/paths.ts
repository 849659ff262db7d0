// The console's URLs under its mount path, in one place (pages link with these, the router matches them).

export interface AdminPaths {
  base: string
  dashboard: string
  affiliates: string
  affiliateNew: string
  affiliatesExport: string
  affiliate(id: number): string
  affiliateStatus(id: number): string
  affiliatePortalLink(id: number): string
  review: string
  conversions: string
  conversion(id: number): string
  conversionRefund(id: number): string
  conversionsExport: string
  coupons: string
  couponStatus(id: number): string
  payouts: string
  payoutsExport: string
  payoutsBatch: string
  webhooks: string
  deliveryRetry(id: number): string
  webhookTest(id: number): string
  webhookRotate(id: number): string
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

/** `base` is '/admin' or '' (mounted at the root); `versions` are the assets' content hashes. */
export function adminPaths(base: string, versions: { stylesheet: string; script: string }): AdminPaths {
  return {
    base,
    dashboard: `${base}/dashboard`,
    affiliates: `${base}/`,
    affiliateNew: `${base}/affiliates/new`,
    affiliatesExport: `${base}/affiliates/export`,
    affiliate: (id) => `${base}/affiliates/${id}`,
    affiliateStatus: (id) => `${base}/affiliates/${id}/status`,
    affiliatePortalLink: (id) => `${base}/affiliates/${id}/portal-link`,
    review: `${base}/review`,
    conversions: `${base}/conversions`,
    conversion: (id) => `${base}/conversions/${id}`,
    conversionRefund: (id) => `${base}/conversions/${id}/refund`,
    conversionsExport: `${base}/conversions/export`,
    coupons: `${base}/coupons`,
    couponStatus: (id) => `${base}/coupons/${id}/status`,
    payouts: `${base}/payouts`,
    payoutsExport: `${base}/payouts/export`,
    payoutsBatch: `${base}/payouts/batch`,
    webhooks: `${base}/webhooks`,
    deliveryRetry: (id) => `${base}/webhooks/deliveries/${id}/retry`,
    webhookTest: (id) => `${base}/webhooks/${id}/test`,
    webhookRotate: (id) => `${base}/webhooks/${id}/rotate-secret`,
    keys: `${base}/keys`,
    keyRevoke: (id) => `${base}/keys/${id}/revoke`,
    keysPublishable: `${base}/keys/publishable`,
    providerEvents: `${base}/provider-events`,
    providerEventReplay: (id) => `${base}/provider-events/${id}/replay`,
    auditLog: `${base}/audit-log`,
    settings: `${base}/settings`,
    signIn: `${base}/sign-in`,
    signOut: `${base}/sign-out`,
    stylesheet: `${base}/assets/admin.css?v=${versions.stylesheet}`,
    script: `${base}/assets/admin.js?v=${versions.script}`,
  }
}
