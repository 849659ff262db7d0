// The in-memory adapter's data: tables with their indexes, and small helpers shared by its
// repositories. Rows are frozen when stored and handed out as they are.
import type { NewEvent } from '../../core/ports/storage.js'
import type {
  Affiliate,
  ApiKeyRecord,
  Click,
  Conversion,
  Coupon,
  Delivery,
  DeliveryAttempt,
  LedgerMovement,
  Link,
  MailAttempt,
  MailMessage,
  Payout,
  PayoutRequest,
  Project,
  ProviderEvent,
  ProviderPayout,
  ProviderLink,
  Referral,
  RuleSet,
  WebhookEndpoint,
  WebhookEvent,
} from '../../core/model/types.js'
import { CardCustomers } from './card-customers.js'
import { DueQueue } from './due-queue.js'
import { HeldBalances } from './held-balances.js'
import { TrackingState } from './repositories/tracking.js'
import { AnalyticsState } from './repositories/analytics-state.js'
import { Table, type UndoLog } from './table.js'

export class MemoryState {
  projects = new Map<string, Project>()
  apiKeys = new Table<ApiKeyRecord>([{ name: 'api_key_hash', key: (row) => row.hash }])
  affiliates = new Table<Affiliate>(
    [
      { name: 'affiliate_email', key: (row) => `${row.projectId}|${row.email}` },
      { name: 'affiliate_external_id', key: (row) => (row.externalId === null ? null : `${row.projectId}|${row.externalId}`) },
      { name: 'affiliate_referral_code', key: (row) => `${row.projectId}|${row.referralCode.toLowerCase()}` },
    ],
    { project: (row) => row.projectId },
    freezeAffiliate,
  )
  referrals = new Table<Referral>([{ name: 'referral_email', key: (row) => `${row.projectId}|${row.email}` }], {
    project: (row) => row.projectId,
    affiliate: (row) => row.affiliateId,
  })
  /** Referral id -> the commission rules in force at its first purchase (commission.grandfather). */
  referralTerms = new Map<number, RuleSet>()
  /** The conversions' held balances per affiliate, kept in step with the table. */
  heldBalances = new HeldBalances()
  /** The conversions' distinct customer emails per card, kept in step with the table. */
  cardCustomers = new CardCustomers()
  conversions = new Table<Conversion>(
    [{ name: 'conversion_reference', key: (row) => (row.reference === null ? null : `${row.projectId}|${row.reference}`) }],
    {
      project: (row) => row.projectId,
      affiliate: (row) => row.affiliateId,
      // Unpaid earning conversions: payouts read only these, so their cost does not grow with paid history.
      unpaidActive: (row) => (row.status === 'active' && !row.paid ? row.affiliateId : null),
      parentConversionId: (row) => row.parentConversionId,
      // What the fraud rules read (docs/fraud.md).
      visitorSignups: (row) => (row.type === 'signup' && row.clickVisitor !== null ? `${row.projectId}|${row.clickVisitor}` : null),
    },
    Object.freeze,
    [this.heldBalances, this.cardCustomers],
  )
  coupons = new Table<Coupon>([{ name: 'coupon_code', key: (row) => `${row.projectId}|${row.code.toLowerCase()}` }], {
    project: (row) => row.projectId,
    affiliate: (row) => row.affiliateId,
  })
  clicks = new Table<Click>([], { affiliate: (row) => row.affiliateId })
  links = new Table<Link>([{ name: 'link_key', key: (row) => `${row.projectId}|${row.key.toLowerCase()}` }], {
    project: (row) => row.projectId,
    affiliate: (row) => row.affiliateId,
  })
  payouts = new Table<Payout>([], { project: (row) => row.projectId, affiliate: (row) => row.affiliateId })
  payoutRequests = new Table<PayoutRequest>([], { project: (row) => row.projectId, affiliate: (row) => row.affiliateId })
  ledger = new Table<LedgerMovement>([], { project: (row) => row.projectId, affiliate: (row) => row.affiliateId })
  providerPayouts = new Table<ProviderPayout>([], {
    project: (row) => row.projectId,
    payout: (row) => row.payoutId,
    affiliate: (row) => row.affiliateId,
  })
  endpoints = new Table<WebhookEndpoint>([], { project: (row) => row.projectId })
  events = new Table<WebhookEvent>()
  deliveries = new Table<Delivery>([], { project: (row) => row.projectId, endpoint: (row) => row.endpointId })
  /** Deliveries by when they become claimable (the outbox notes every stored delivery row). */
  deliveriesDue = new DueQueue(this.deliveries.rows)
  attempts = new Table<DeliveryAttempt>([], { delivery: (row) => row.deliveryId })
  /**
   * Events recorded but not yet stored as rows (see materializeOutbox). Their endpoints are looked
   * up when they are stored: every endpoint change stores the pending events first.
   */
  fanout: NewEvent[] = []
  providerEvents = new Table<ProviderEvent>(
    [{ name: 'provider_event', key: (row) => `${row.projectId}|${row.provider}|${row.eventId}` }],
    { project: (row) => row.projectId },
  )
  providerLinks = new Map<string, ProviderLink>()
  mail = new Table<MailMessage>([], { project: (row) => row.projectId, dedupe: (row) => (row.dedupeKey === null ? null : `${row.projectId}|${row.dedupeKey}`) })
  mailAttempts = new Table<MailAttempt>([], { mail: (row) => row.mailId })
  /** Whether a mail dispatcher has run (mails are written from then on). */
  mailOn = false
  tracking = new TrackingState()
  analytics = new AnalyticsState()
}

/** The stored row of a recorded event: its payload serialized, once. */
export const eventRow = (event: NewEvent): Omit<WebhookEvent, 'id'> => ({
  projectId: event.projectId,
  type: event.type,
  body: JSON.stringify(event.payload),
  createdAt: event.createdAt,
})

// Rows are frozen when stored, so reads hand them out without copying.
export const found = <T>(row: T | undefined): T | null => row ?? null
export const freezeAffiliate = (row: Affiliate): Affiliate => {
  Object.freeze(row.totals)
  return Object.freeze(row)
}
/**
 * The affiliate with new running totals. Written out field by field: spreading a frozen row
 * takes V8's slow clone path, and every conversion moves an affiliate's totals. The Affiliate
 * return type makes the compiler catch a (required) field added to the type but not here.
 */
export function withTotals(row: Affiliate, totals: Affiliate['totals']): Affiliate {
  return {
    id: row.id,
    projectId: row.projectId,
    email: row.email,
    externalId: row.externalId,
    name: row.name,
    referralCode: row.referralCode,
    status: row.status,
    commission: row.commission,
    incentives: row.incentives,
    tier: row.tier,
    partnerSlug: row.partnerSlug,
    paymentMethod: row.paymentMethod,
    paymentDetails: row.paymentDetails,
    payoutMethod: row.payoutMethod,
    paypalEmail: row.paypalEmail,
    wiseDetails: row.wiseDetails,
    parentId: row.parentId,
    customFields: row.customFields,
    locale: row.locale,
    emailOptOut: row.emailOptOut,
    application: row.application,
    taxDetails: row.taxDetails,
    stripeAccountId: row.stripeAccountId,
    createdAt: row.createdAt,
    totals,
  }
}
export const inProject = <T extends { projectId: string }>(row: T | undefined, projectId: string): T | undefined =>
  row && row.projectId === projectId ? row : undefined

/** Stores the project's row with `patch` applied: the new row, or null when absent from the project. */
export function patchRow<T extends { id: number; projectId: string }>(table: Table<T>, projectId: string, id: number, patch: object, log: UndoLog): T | null {
  const existing = inProject(table.get(id), projectId)
  return existing ? table.replace({ ...existing, ...patch } as T, log) : null
}

export { setMapEntry } from './table.js'

/** The undo log of the transaction running now (transactions never overlap: one mutex). */
export interface CurrentLog {
  entries: UndoLog
}
