// Clicks and sales through the program, as the tracking surface makes them (docs/analytics.md
// "The click path"): visits counted by program.tracking.recordClicks, and conversions naming their
// click through the signed referral the tracking cookie carries.
import type { ClickVisit } from '../../../src/core/affiliates/click-flush.js'
import { clickId } from '../../../src/core/model/click-id.js'
import { signedReferralValue } from '../../../src/core/model/signed-referral.js'
import { visitorSaltOf } from '../../../src/core/rules/visitor-salt.js'
import type { AffiliateProgram, StoragePort } from '../../../src/index.js'
import { clickRow } from './clicks.js'

/** A visit as the tracking surface hands it over; campaign fields, referrer, country and browser unknown unless given. */
export interface VisitFields extends Partial<Omit<ClickVisit, 'id' | 'day' | 'visitor'>> {
  affiliateId: number
  at: Date
  /** 16 letters and digits: the day's visitor hash, as a signed referral names it. null: a bot. */
  visitor: string | null
}

/** Makes visits for one program: their ids are the program's click ids, their days the project's (`timeZone`). */
export async function clickMaker(program: AffiliateProgram, storage: StoragePort, timeZone = 'UTC') {
  const salt = await visitorSaltOf({ storage, projectId: program.projectId })
  const visit = (fields: VisitFields): ClickVisit => {
    const { visitor, ...rest } = fields
    // A click row's defaults (campaign, referrer, country and browser unknown, a desktop), less what only a row has.
    const { hour: _hour, newVisitor: _new, ...defaults } = clickRow(timeZone, rest)
    return { ...defaults, id: clickId(salt, { visitor: visitor ?? 'bot', affiliateId: fields.affiliateId, linkId: defaults.linkId, at: fields.at }), visitor }
  }
  return {
    visit,
    /** The referral cookie's value for a visit: what a conversion names as its `click`. */
    signedReferral(code: string, visited: ClickVisit): string {
      return signedReferralValue(salt, { code, expires: 4_000_000_000, visitor: visited.visitor!, click: visited.id })
    },
  }
}

const visitor = (name: string) => name.padEnd(16, '0')

/**
 * Two affiliates' links, clicks and sales in March 2026 (UTC), through the program, the clock left
 * at 2026-03-10T12:00Z. Ann: link ann-youtube (youtube, spring) 4 clicks of 3 visitors and a bot's,
 * link ann-news (newsletter, winter) 2 clicks, her referral code 1 click; a sale of 100.00 through
 * ann-youtube, of 49.99 through ann-news and of 10.00 with no click. Bob: link bob-promo
 * (bob-campaign) 4 clicks and a sale of 200.00 through it. Commission: 30 % of each sale.
 */
export async function clicksAndSales(program: AffiliateProgram, storage: StoragePort, clock: { set(at: string): void }) {
  clock.set('2026-03-01T00:00:00Z')
  const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
  const links = {
    youtube: await program.links.create({ affiliate: ann.id, key: 'ann-youtube', utmSource: 'youtube', utmCampaign: 'spring' }),
    news: await program.links.create({ affiliate: ann.id, key: 'ann-news', utmSource: 'newsletter', utmCampaign: 'winter' }),
    bob: await program.links.create({ affiliate: bob.id, key: 'bob-promo', utmCampaign: 'bob-campaign' }),
  }
  const clicks = await clickMaker(program, storage)
  const spring = { affiliateId: ann.id, linkId: links.youtube.id, utmSource: 'youtube', utmCampaign: 'spring' }
  const winter = { affiliateId: ann.id, linkId: links.news.id, utmSource: 'newsletter', utmCampaign: 'winter' }
  const springFirst = clicks.visit({ ...spring, at: new Date('2026-03-02T10:00:00Z'), visitor: visitor('ann-a1') })
  const winterFirst = clicks.visit({ ...winter, at: new Date('2026-03-05T15:00:00Z'), visitor: visitor('ann-a4') })
  const bobLink = { affiliateId: bob.id, linkId: links.bob.id, utmCampaign: 'bob-campaign' }
  const bobFirst = clicks.visit({ ...bobLink, at: new Date('2026-03-03T12:00:00Z'), visitor: visitor('bob-b1') })
  await program.tracking.recordClicks([
    springFirst,
    clicks.visit({ ...spring, at: new Date('2026-03-02T10:30:00Z'), visitor: visitor('ann-a1') }), // the same click: same visitor, link and hour
    clicks.visit({ ...spring, at: new Date('2026-03-02T10:05:00Z'), visitor: visitor('ann-a2') }),
    clicks.visit({ ...spring, at: new Date('2026-03-02T10:10:00Z'), visitor: visitor('ann-a3'), device: 'mobile' }),
    clicks.visit({ ...spring, at: new Date('2026-03-02T11:00:00Z'), visitor: null }),
    clicks.visit({ ...spring, at: new Date('2026-03-04T09:00:00Z'), visitor: visitor('ann-a1') }),
    winterFirst,
    clicks.visit({ ...winter, at: new Date('2026-03-05T15:20:00Z'), visitor: visitor('ann-a5') }),
    clicks.visit({ affiliateId: ann.id, at: new Date('2026-03-06T08:00:00Z'), visitor: visitor('ann-a6') }),
    bobFirst,
    ...['bob-b2', 'bob-b3', 'bob-b4'].map((name) => clicks.visit({ ...bobLink, at: new Date('2026-03-03T12:30:00Z'), visitor: visitor(name) })),
  ])
  clock.set('2026-03-08T12:00:00Z')
  await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'buyer1@example.com', baseValue: 100, reference: 'ann-1', click: clicks.signedReferral('ANN', springFirst) })
  await program.conversions.create({ type: 'purchase', referralCode: 'ANN', email: 'buyer2@example.com', baseValue: 49.99, reference: 'ann-2', click: clicks.signedReferral('ANN', winterFirst) })
  await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'buyer3@example.com', baseValue: 10, reference: 'ann-3' })
  await program.conversions.create({ type: 'purchase', referralCode: 'BOB', email: 'buyer4@example.com', baseValue: 200, reference: 'bob-1', click: clicks.signedReferral('BOB', bobFirst) })
  clock.set('2026-03-10T12:00:00Z')
  return { ann, bob, links, clicks }
}
