// Which emails exist, which outbox event each comes from (by the event's name, so an event added
// later, such as affiliate.tier_changed, becomes a mail the day it is written), and which of them an
// affiliate may turn off (docs/email.md "Messages" and "Preferences").

export const MAIL_KINDS = [
  'sign_in',
  'application_received',
  'approved',
  'rejected',
  'new_commission',
  'commission_ready',
  'payout_sent',
  'tier_changed',
  'monthly_summary',
] as const
export type MailKind = (typeof MAIL_KINDS)[number]

/** What an affiliate can turn off: `account` mails (sign-in, application, payouts) always go. */
export const MAIL_TOPICS = ['account', 'commissions', 'summary'] as const
export type MailTopic = (typeof MAIL_TOPICS)[number]
export const OPTIONAL_TOPICS: readonly MailTopic[] = ['commissions', 'summary']

export const MAIL_TOPIC: Record<MailKind, MailTopic> = {
  sign_in: 'account',
  application_received: 'account',
  approved: 'account',
  rejected: 'account',
  new_commission: 'commissions',
  commission_ready: 'commissions',
  payout_sent: 'account',
  tier_changed: 'commissions',
  monthly_summary: 'summary',
}

/** The mail an outbox event becomes, by event name; events absent here send none. */
export const MAIL_OF_EVENT: Readonly<Record<string, MailKind>> = {
  'portal.sign_in_requested': 'sign_in',
  'affiliate.applied': 'application_received',
  'affiliate.approved': 'approved',
  'affiliate.rejected': 'rejected',
  referral_converted: 'new_commission',
  'payout.created': 'payout_sent',
  'affiliate.tier_changed': 'tier_changed',
}

export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed', 'bounced', 'skipped', 'expired'] as const
export type MailStatus = (typeof MAIL_STATUSES)[number]

/** A mail to write with the change that causes it (or later, for summaries and follow-ups). */
export interface NewMail {
  projectId: string
  kind: MailKind
  affiliateId: number
  recipient: string
  payload: Readonly<Record<string, unknown>>
  dedupeKey: string | null
  /** Not sent before this moment (a commission's hold end). */
  sendAt: Date
  createdAt: Date
}

/**
 * The reference prefix of commissions an import brings over (`import:<tool>:<id>`, docs/migrating.md):
 * history the affiliate was already told about by the old tool, so it is never mailed.
 */
export const IMPORTED_REFERENCE_PREFIX = 'import:'

/** Whether an event is about an imported commission (its `order_id` is the conversion's reference). */
function isImportedHistory(payload: Readonly<Record<string, unknown>>): boolean {
  const orderId = (payload.conversion as { order_id?: unknown } | undefined)?.order_id
  return typeof orderId === 'string' && orderId.startsWith(IMPORTED_REFERENCE_PREFIX)
}

/** Whether an application was accepted as it was made (an `open` page): its mail is the welcome, not "we will review". */
function isAcceptedAtOnce(payload: Readonly<Record<string, unknown>>): boolean {
  return (payload.application as { status?: unknown } | undefined)?.status === 'active'
}

/** The mail an outbox event becomes, or null: every event payload names its affiliate (docs/webhooks.md "Payloads"). */
export function mailOfEvent(event: { projectId: string; type: string; payload: Readonly<Record<string, unknown>>; createdAt: Date; quiet?: boolean }): NewMail | null {
  if (event.quiet) return null
  const kind = MAIL_OF_EVENT[event.type]
  const affiliate = event.payload.affiliate as { id?: unknown; email?: unknown } | undefined
  if (!kind || !affiliate || typeof affiliate.email !== 'string') return null
  if (kind === 'new_commission' && isImportedHistory(event.payload)) return null
  const affiliateId = Number(String(affiliate.id).replace(/^aff_/, ''))
  if (!Number.isSafeInteger(affiliateId)) return null
  const { projectId, payload, createdAt } = event
  return { projectId, kind: kind === 'application_received' && isAcceptedAtOnce(payload) ? 'approved' : kind, affiliateId, recipient: affiliate.email, payload, dedupeKey: null, sendAt: createdAt, createdAt }
}
