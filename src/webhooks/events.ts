// The events a receiver gets (docs/webhooks.md "Events" and "Payloads"), typed from the builders
// that make them (src/core/ports/events.ts) as JSON carries them: one definition for both, so a
// field the dispatcher sends is a field these types name.
import type * as Build from '../core/ports/events.js'
import type { EventType } from '../core/model/types.js'

/** A value as JSON.stringify writes it: what its toJSON returns (dates: ISO text, amounts: numbers), members likewise. */
export type Json<T> = T extends { toJSON(): infer R } ? R : T extends readonly (infer I)[] ? Json<I>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T

type PayloadOf<Builder extends (...args: never[]) => { payload: object }> = Json<ReturnType<Builder>['payload']>
type ConversionEvents = ReturnType<typeof Build.conversionEvents>

/** Every event's payload, by event type. */
export interface WebhookPayloads {
  referral_signed_up: PayloadOf<typeof Build.referralSignedUp>
  referral_converted: PayloadOf<ConversionEvents['converted']>
  referral_updated: PayloadOf<ConversionEvents['updated']>
  referral_canceled: PayloadOf<ConversionEvents['canceled']>
  'payout.created': PayloadOf<typeof Build.payoutCreated>
  'payout.requested': PayloadOf<typeof Build.payoutRequested>
  'payout.paid': PayloadOf<typeof Build.payoutPaid>
  'payout.failed': PayloadOf<typeof Build.payoutFailed>
  'portal.sign_in_requested': PayloadOf<typeof Build.portalSignInRequested>
  'affiliate.applied': PayloadOf<typeof Build.affiliateApplied>
  'affiliate.approved': PayloadOf<typeof Build.affiliateApproved>
  'affiliate.rejected': PayloadOf<typeof Build.affiliateRejected>
  'affiliate.tier_changed': PayloadOf<typeof Build.tierChanged>
}

/** The payload of one event type. */
export type WebhookEventOf<T extends EventType> = WebhookPayloads[T]

/** Any event a receiver gets: narrow it by `event`. (Indexed by EventType: an event type without a payload here does not compile.) */
export type WebhookEvent = WebhookPayloads[EventType]
