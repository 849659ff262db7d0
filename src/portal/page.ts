// What a portal page handler gets (the signed-in affiliate, URLs, the CSRF token of its forms)
// and gives back (a title and body for the frame, a redirect, or a download).
import type { AffiliateView } from '../core/rules/views.js'
import type { Locale } from '../core/model/i18n/locales.js'
import type { Translate } from '../core/model/i18n/translate.js'
import type { Html } from '../web/html.js'
import type { PortalPaths } from './paths.js'
import type { PortalProgram } from './program.js'

export interface SignedInRequest {
  url: URL
  program: PortalProgram
  affiliate: AffiliateView
  paths: PortalPaths
  /** The CSRF token every form of the page carries. */
  csrf: string
  /** The affiliate's referral link (portal option referralLink); null when none is configured. */
  referralLink: string | null
  /** The page's language: the affiliate's, else the browser's, else the portal's (docs/email.md "Languages"). */
  locale: Locale
  /** The catalogue of `locale`. */
  t: Translate
  /** Makes a Stripe Connect onboarding link for the affiliate (portal option stripeConnect); null when off. */
  stripeOnboarding: (() => Promise<string>) | null
}

/** What the portal needs of Stripe Connect onboarding (src/payouts/stripe/connect.ts's stripeConnect). */
export interface StripeOnboarding {
  onboardingLink(affiliateId: number, urls: { returnUrl: string; refreshUrl: string }): Promise<{ url: string }>
}

/** A page for the frame, a redirect, or a file to download (a link's QR code). */
export type PageResult =
  | { title: string; body: Html; status?: number }
  | { redirect: string }
  | { download: { filename: string; contentType: string; body: string | Uint8Array<ArrayBuffer> } }
