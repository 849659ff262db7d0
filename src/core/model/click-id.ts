// A click's id (docs/analytics.md): a keyed hash of the visitor's day hash, the affiliate, the
// link and the hour, so a second click of the visitor through the link in that hour is the same
// click (deduplicated by the storage's unique key), and the signed referral can name the click
// before its row is written.
import { createHmac } from 'node:crypto'

const HOUR = 3_600_000

export function clickId(salt: string, click: { visitor: string; affiliateId: number; linkId: number | null; at: Date }): string {
  const hour = Math.floor(click.at.getTime() / HOUR)
  return createHmac('sha256', salt).update(`affiliate-kit click\n${click.visitor}\n${click.affiliateId}\n${click.linkId ?? 0}\n${hour}`).digest('base64url').slice(0, 16)
}
