// One-click unsubscribe links (RFC 8058): a token naming the affiliate and the topic, signed with
// the mail secret, so the portal's /unsubscribe turns the topic off without a sign-in and nobody
// can forge one for another affiliate (docs/email.md "Unsubscribing").
import { createHmac, timingSafeEqual } from 'node:crypto'
import { OPTIONAL_TOPICS, type MailTopic } from '../core/model/mail-kinds.js'

function signature(secret: string, projectId: string, affiliateId: number, topic: MailTopic): string {
  return createHmac('sha256', secret).update(`unsubscribe:${projectId}:${affiliateId}:${topic}`).digest('base64url').slice(0, 32)
}

export function unsubscribeToken(secret: string, projectId: string, affiliateId: number, topic: MailTopic): string {
  return `${affiliateId}.${topic}.${signature(secret, projectId, affiliateId, topic)}`
}

/** The affiliate and topic of a token signed for the project, or null (malformed, forged, another project). */
export function readUnsubscribeToken(secret: string, projectId: string, token: string | null | undefined): { affiliateId: number; topic: MailTopic } | null {
  const match = /^([1-9]\d{0,14})\.([a-z]{1,20})\.([A-Za-z0-9_-]{32})$/.exec(token ?? '')
  if (!match) return null
  const affiliateId = Number(match[1])
  const topic = match[2] as MailTopic
  if (!OPTIONAL_TOPICS.includes(topic)) return null
  const expected = Buffer.from(signature(secret, projectId, affiliateId, topic))
  const given = Buffer.from(match[3]!)
  return given.length === expected.length && timingSafeEqual(given, expected) ? { affiliateId, topic } : null
}

/** The mail secret of a server configured without one: derived from the SMTP URL, which holds its password. */
export function secretFromSmtpUrl(smtpUrl: string): string {
  return createHmac('sha256', 'affiliate-kit mail secret').update(smtpUrl).digest('base64url')
}
