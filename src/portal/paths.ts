// The portal's URLs under its mount path, as pages link with them: the named rows of the page
// table (routes.ts, whose portalPaths() builds them), plus sign-in, sign-out and the assets.

export interface PortalPaths {
  base: string
  overview: string
  conversions: string
  conversion(id: number): string
  links: string
  /** Posted to delete the link. */
  linkDelete(id: number): string
  /** The link's QR code, downloaded (`?format=svg` or `png`). */
  linkQr(id: number): string
  payouts: string
  /** Posted to start Stripe Connect onboarding. */
  stripeConnect: string
  settings: string
  tax: string
  analytics: string
  apply: string
  /** The application page of a sub-program. */
  applyGroup(slug: string): string
  signIn: string
  signInEmail: string
  signOut: string
  stylesheet: string
  script: string
}
