// Visits through referral links and signups reported from the browser (docs/tracking.md): a visit
// counts a click once per visitor, link and hour and a visitor once per day (click-flush.ts); a
// browser signup creates the referred user and never moves an existing one.
import type { ProjectContext } from '../rules/context.js'
import { countDay } from '../rules/daily-counts.js'
import { email as emailSchema, referralCode as codeSchema, validate } from '../model/schemas.js'
import { NotFoundError } from '../model/errors.js'
import { referralSignedUp } from '../ports/events.js'
import { UniqueViolation } from '../ports/storage.js'
import type { PaidAdClickId } from '../rules/fraud/signals.js'
import type { Affiliate, Link, Project, ProjectSettings, Referral } from '../model/types.js'
import type { StorageTx } from '../ports/storage.js'
import { lockAffiliates } from '../ports/row-locks.js'
import { clickVisitorOf } from '../rules/fraud/index.js'
import { clickId } from '../model/click-id.js'
import { clickIdOf } from '../model/signed-referral.js'
import type { ClickCampaign } from '../ports/analytics.js'
import { recordClicks, type ClickOutcome, type ClickVisit } from './click-flush.js'
import { shortVisitor, visitorHash } from '../model/visitor-hash.js'
import { visitorSaltOf } from '../rules/visitor-salt.js'
import * as v from 'valibot'

export interface VisitInput {
  referralCode: string
  /** Set for sub-program links (`/r/<partner_slug>/<code>`): the affiliate must belong to it. */
  partnerSlug?: string
  /**
   * The visitor's salted hash for a day of the project's time zone; never a raw IP address.
   * null when the visit must not count (a bot, or an address past its visitors for the day).
   */
  visitor: ((day: string) => string) | null
  /** The paid ad's click id parameter the visit carried (gclid, fbclid, msclkid): marks the visitor for the fraud rules. */
  paidAdClickId?: PaidAdClickId
}

export interface VisitResult {
  /** The active affiliate the link names; null for an unknown or inactive code (nothing counted). */
  affiliate: Pick<Affiliate, 'id' | 'referralCode'> | null
  /** Whether this visit counted (false for the same visitor again the same day). */
  counted: boolean
}

export type BrowserSignupOutcome = 'created' | 'unchanged'

/** What a browser signup that created a referred user may earn: given by the program (the conversions' room is above this one). */
export interface SignupRewards {
  /** Whether the affiliate's rules reward signups at all. */
  rewarded(settings: ProjectSettings, affiliate: Affiliate): boolean
  /** Writes the signup's conversion through `tx`, beside its referred user. */
  reward(tx: StorageTx, input: { project: Project; referral: Referral; affiliate: Affiliate; clickVisitor: string | null }): Promise<unknown>
}

const browserSignupInput = v.strictObject({ email: emailSchema, referralCode: codeSchema, click: v.optional(v.string()) })

/** What a link token resolves to: an active affiliate, and the link when the token is one (null: the referral code itself). */
export interface LinkTarget {
  affiliate: Pick<Affiliate, 'id' | 'referralCode' | 'partnerSlug'>
  /** The link the token is: where it sends visitors and its default campaign (docs/links.md). */
  link: Pick<Link, 'id' | 'destination' | 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent'> | null
}

const NO_CAMPAIGN: ClickCampaign = { utmSource: null, utmMedium: null, utmCampaign: null, utmTerm: null, utmContent: null, sub1: null, sub2: null, sub3: null, sub4: null, sub5: null }

export function visitsService(ctx: ProjectContext, rewards?: SignupRewards) {
  const { storage, projectId } = ctx

  async function resolveTarget(token: string, partnerSlug: string | undefined): Promise<LinkTarget | null> {
    const code = v.safeParse(codeSchema, token)
    if (!code.success) return null
    const found = await storage.links.resolve(projectId, code.output)
    if (!found || found.affiliate.status !== 'active') return null
    const { affiliate, link } = found
    if (partnerSlug !== undefined && affiliate.partnerSlug !== partnerSlug) return null
    return {
      affiliate: { id: affiliate.id, referralCode: affiliate.referralCode, partnerSlug: affiliate.partnerSlug },
      link: link && { id: link.id, destination: link.destination, utmSource: link.utmSource, utmMedium: link.utmMedium, utmCampaign: link.utmCampaign, utmTerm: link.utmTerm, utmContent: link.utmContent },
    }
  }

  return {
    /**
     * Counts a visit through an affiliate's link (GET /r/:code), as one click of a flush
     * (recordClicks): the tracking surface's buffer calls recordClicks itself.
     */
    async visit(input: VisitInput): Promise<VisitResult> {
      const target = await resolveTarget(input.referralCode, input.partnerSlug)
      if (!target) return { affiliate: null, counted: false }
      const named = { id: target.affiliate.id, referralCode: target.affiliate.referralCode }
      if (input.visitor === null) return { affiliate: named, counted: false }
      const at = ctx.clock.now()
      const day = await ctx.dayOf(at)
      const visitor = input.visitor(day)
      const salt = await visitorSaltOf(ctx)
      const linkId = target.link?.id ?? null
      const id = clickId(salt, { visitor, affiliateId: named.id, linkId, at })
      const visit: ClickVisit = { ...NO_CAMPAIGN, id, at, day, affiliateId: named.id, linkId, visitor, referrerHost: null, country: null, device: 'other', browser: null, ...(input.paidAdClickId ? { paidAdClickId: input.paidAdClickId } : {}) }
      const [outcome] = await storage.transaction((tx) => recordClicks(ctx, tx, [visit]))
      return { affiliate: named, counted: outcome!.newVisitor }
    },

    /** The active affiliate (and link) a link token names, or null: what the tracking surface caches. */
    resolve: (token: string, partnerSlug?: string) => resolveTarget(token, partnerSlug),

    /** Counts a batch of clicks in one transaction (docs/analytics.md "The click path"). */
    recordClicks(visits: readonly ClickVisit[]): Promise<ClickOutcome[]> {
      return visits.length === 0 ? Promise.resolve([]) : storage.transaction((tx) => recordClicks(ctx, tx, visits))
    },

    /** The day of `at` in the project's time zone, YYYY-MM-DD. */
    dayOf: (at: Date) => ctx.dayOf(at),

    /**
     * Records the affiliate's own browser of today (its portal): a click from the same address and
     * user agent the same day trips the sameVisitor fraud rule (docs/fraud.md). The address is
     * only hashed, never stored.
     */
    async ownVisit(input: { affiliateId: number; address: string; userAgent: string }): Promise<void> {
      if (input.userAgent === '') return
      const salt = await visitorSaltOf(ctx)
      const day = await ctx.dayOf(ctx.clock.now())
      const visitor = shortVisitor(visitorHash(salt, day, input.address, input.userAgent))
      await storage.tracking.markVisitorSignal(projectId, input.affiliateId, visitor, 'own', day)
    },

    /** The project's secret salt for visitor hashes, created on first use from `candidate`. */
    visitorSalt(candidate: string): Promise<string> {
      return storage.tracking.visitorSalt(projectId, candidate)
    },

    /**
     * A signup reported from the browser with the referral it carries. A new email becomes a
     * referred user of the code's affiliate; a known one stays as it is ('unchanged'): anyone
     * can report a browser signup for any email, so it never takes a customer from anyone
     * (a newer referral moves a customer through a conversion the host records, docs/attribution.md).
     * With `click`, the signed referral the signup carried, a new referred user earns the
     * affiliate's signup reward in the same transaction (docs/commissions.md "Leads and trials").
     */
    async browserSignup(input: { email: string; referralCode: string; click?: string }): Promise<BrowserSignupOutcome> {
      const data = validate(browserSignupInput, input)
      const project = await ctx.project()
      const clickVisitor = data.click === undefined || !rewards ? null : await clickVisitorOf(ctx, data.click)
      const signup = storage.transaction(async (tx): Promise<BrowserSignupOutcome> => {
        const found = await tx.affiliates.getByCode(projectId, data.referralCode)
        if (!found || found.status !== 'active') throw new NotFoundError('no affiliate has this referral code', 'referralCode')
        const rewarded = rewards !== undefined && data.click !== undefined && rewards.rewarded(project.settings, found)
        // A reward is a conversion: its affiliate is locked before its customer is written (the lock order, docs/architecture.md).
        const affiliate = rewarded ? (await lockAffiliates(tx, projectId, [found.id])).get(found.id) : found
        if (!affiliate) throw new NotFoundError('no affiliate has this referral code', 'referralCode')
        const now = ctx.clock.now()
        if (await tx.referrals.first(projectId, { email: data.email })) return 'unchanged'
        const referral = await tx.referrals.insert({
          projectId,
          email: data.email,
          affiliateId: affiliate.id,
          conversionStatus: 'pending',
          conversionDate: null,
          firstPurchaseAt: null,
          payments: 0,
          lastPayment: null,
          clickId: clickIdOf(data.click),
          createdAt: now,
        })
        await tx.affiliates.adjustTotals(projectId, affiliate.id, { signups: 1 })
        await countDay(ctx, tx, affiliate.id, now, { signups: 1 })
        await tx.outbox.enqueue(referralSignedUp(referral, { affiliate, referred: referral, at: now, userAgent: '', ipAddress: '' }))
        if (rewarded) await rewards.reward(tx, { project, referral, affiliate, clickVisitor })
        return 'created'
      })
      // Another request (the host's own conversion, another report) created the customer since
      // the read above: it is known now, so this report changes nothing.
      return signup.catch((error: unknown) => {
        if (error instanceof UniqueViolation && error.constraint === 'referral_email') return 'unchanged'
        throw error
      })
    },
  }
}
