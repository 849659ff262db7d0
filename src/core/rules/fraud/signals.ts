// What the fraud rules look at (docs/fraud.md "Signals"): read for one conversion about to be
// created, from the request, the credited affiliate and, only when a rule or the program's
// fraudCheck needs them, the storage.
import type { CreateReads } from '../../ports/storage.js'
import type { Affiliate, ConversionType, FraudSettings } from '../../model/types.js'
import { domainOf, isDisposableDomain, mailbox } from './email.js'

export const PAID_AD_CLICK_IDS = ['gclid', 'fbclid', 'msclkid'] as const
export type PaidAdClickId = (typeof PAID_AD_CLICK_IDS)[number]

export interface FraudSignals {
  /** The customer's email is the affiliate's email or PayPal email (case and a +tag ignored). */
  customerIsAffiliate: boolean
  /** The customer's email domain is the domain of the affiliate's email or PayPal email. */
  sameEmailDomain: boolean
  /** The customer's email domain is on mailchecker's list of disposable-mail domains. */
  disposableEmail: boolean
  /** The attributed click's visitor (16 characters of its day's visitor hash); null without a click. */
  clickVisitor: string | null
  /** The click came from the browser and address the affiliate used the portal from that day. */
  sameVisitor: boolean
  /** The paid-ad click id the click carried (gclid, fbclid or msclkid); null when none. */
  paidAdClickId: PaidAdClickId | null
  /** The payment card's fingerprint, where the provider gives it (Stripe charges). */
  cardFingerprint: string | null
  /** The card paid for an earlier purchase of the affiliate itself (a conversion whose customer is the affiliate). */
  cardUsedByAffiliate: boolean
  /** For a signup with a click: the signup conversions recorded before it with the same click visitor; else null. */
  visitorSignups: number | null
  /** For a signup: the signup conversions of the affiliate recorded before it on the same day (project time zone); null when not read. */
  affiliateSignups: number | null
  /** The purchase amount in the project currency, as decimal text; null for signups or without a base value. */
  amount: string | null
}

/** The conversion about to be created, as a fraudCheck sees it. */
export interface FraudCheckConversion {
  projectId: string
  type: ConversionType
  affiliate: Pick<Affiliate, 'id' | 'email' | 'paypalEmail' | 'status' | 'referralCode' | 'partnerSlug'>
  customerEmail: string | null
  /** The commission it would earn, in the project currency. */
  value: string
  currency: string
  baseValue: string | null
  baseValueCurrency: string
  reference: string | null
  productId: string | null
  paymentProcessor: string | null
}

export interface SignalSources {
  type: ConversionType
  affiliate: Affiliate
  customerEmail: string | null
  clickVisitor: string | null
  cardFingerprint: string | null
  amount: string | null
}

/** Which signals read the storage: only those a rule that does something, or a fraudCheck, looks at. */
export function storageSignalsNeeded(rules: FraudSettings, hook: boolean) {
  return {
    visitorSignals: hook || rules.sameVisitor !== 'allow' || rules.paidAdsClick !== 'allow',
    signups: hook || (rules.signupsPerVisitorPerDay !== undefined && rules.signupsPerVisitorPerDay.action !== 'allow'),
    affiliateSignups: hook || (rules.signupsPerAffiliatePerDay !== undefined && rules.signupsPerAffiliatePerDay.action !== 'allow'),
    card: hook || rules.selfReferral !== 'allow',
  }
}

/** What the signals read from the storage (part of a conversion's create reads, storage.ts CreateReadsQuery). */
export function signalReads(sources: Pick<SignalSources, 'type' | 'clickVisitor' | 'cardFingerprint'>, needed: ReturnType<typeof storageSignalsNeeded>, day: () => DayRangeTimes) {
  const { clickVisitor, cardFingerprint } = sources
  return {
    visitorSignalsOf: needed.visitorSignals ? clickVisitor : null,
    signupsOf: sources.type === 'signup' && needed.signups ? clickVisitor : null,
    cardCustomersOf: needed.card ? cardFingerprint : null,
    affiliateSignupsIn: sources.type === 'signup' && needed.affiliateSignups ? day() : null,
  }
}

/** The instants a day of the project's time zone spans: [from, to). */
export interface DayRangeTimes {
  from: Date
  to: Date
}

/** The signals, from the sources and what signalReads asked the storage. */
export async function signalsOf(sources: SignalSources, reads: Pick<CreateReads, 'visitorSignals' | 'signups' | 'cardCustomers' | 'affiliateSignups'>): Promise<FraudSignals> {
  const { affiliate, customerEmail, clickVisitor, cardFingerprint } = sources
  const seen = reads.visitorSignals
  // The emails are compared only when there is one to compare: most conversions name no customer and no card.
  const emails = customerEmail !== null || reads.cardCustomers.length > 0 ? await emailSignals(affiliate, customerEmail, reads.cardCustomers) : NO_EMAIL_SIGNALS
  return {
    customerIsAffiliate: emails.customerIsAffiliate,
    sameEmailDomain: emails.sameEmailDomain,
    disposableEmail: emails.disposableEmail,
    clickVisitor,
    sameVisitor: seen.includes('own'),
    paidAdClickId: PAID_AD_CLICK_IDS.find((id) => seen.includes(id)) ?? null,
    cardFingerprint,
    cardUsedByAffiliate: emails.cardUsedByAffiliate,
    visitorSignups: reads.signups,
    affiliateSignups: reads.affiliateSignups ?? null,
    amount: sources.amount,
  }
}

type EmailSignals = Pick<FraudSignals, 'customerIsAffiliate' | 'sameEmailDomain' | 'disposableEmail' | 'cardUsedByAffiliate'>

const NO_EMAIL_SIGNALS: EmailSignals = { customerIsAffiliate: false, sameEmailDomain: false, disposableEmail: false, cardUsedByAffiliate: false }

/** What the customer's email, and the emails of the card's earlier customers, say of the affiliate. */
async function emailSignals(affiliate: Affiliate, customerEmail: string | null, cardCustomers: readonly string[]): Promise<EmailSignals> {
  const own = [affiliate.email, affiliate.paypalEmail].filter((email): email is string => email !== null)
  const ownMailboxes = own.map(mailbox)
  const customer = customerEmail === null ? null : mailbox(customerEmail)
  const domain = customerEmail === null ? null : domainOf(customerEmail)
  return {
    customerIsAffiliate: customer !== null && ownMailboxes.includes(customer),
    sameEmailDomain: domain !== null && own.some((email) => domainOf(email) === domain),
    disposableEmail: domain !== null && (await isDisposableDomain(domain)),
    cardUsedByAffiliate: cardCustomers.some((email) => ownMailboxes.includes(mailbox(email))),
  }
}
