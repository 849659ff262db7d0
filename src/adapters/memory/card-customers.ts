// The distinct customer emails of each card fingerprint's conversions (what the self-referral
// rule compares with the affiliate's own emails, docs/fraud.md), kept in step with the table: a
// create reads them without walking the card's conversions, however many it has.
import type { Conversion } from '../../core/model/types.js'
import type { TableWatcher } from './table.js'

export class CardCustomers implements TableWatcher<Conversion> {
  /** Per project and card: each email and how many of the card's conversions name it, in order of first use. */
  private readonly byCard = new Map<string, Map<string, number>>()

  added(row: Conversion): void {
    if (row.cardFingerprint === null || row.customerEmail === null) return
    const key = `${row.projectId}|${row.cardFingerprint}`
    let emails = this.byCard.get(key)
    if (!emails) this.byCard.set(key, (emails = new Map()))
    emails.set(row.customerEmail, (emails.get(row.customerEmail) ?? 0) + 1)
  }

  removed(row: Conversion): void {
    if (row.cardFingerprint === null || row.customerEmail === null) return
    const key = `${row.projectId}|${row.cardFingerprint}`
    const emails = this.byCard.get(key)
    const count = emails?.get(row.customerEmail)
    if (!emails || count === undefined) return
    if (count > 1) emails.set(row.customerEmail, count - 1)
    else if (emails.delete(row.customerEmail) && emails.size === 0) this.byCard.delete(key)
  }

  /** The first `limit` distinct emails of the card's conversions. */
  emails(projectId: string, cardFingerprint: string, limit: number): string[] {
    const emails: string[] = []
    for (const email of this.byCard.get(`${projectId}|${cardFingerprint}`)?.keys() ?? []) {
      if (emails.length === limit) break
      emails.push(email)
    }
    return emails
  }
}
