// GDPR export and erase (docs/privacy.md). Export: everything stored about an affiliate or a
// referred user, as one object. Erase: their personal data replaced by placeholders in their own
// rows, and their identifying texts scrubbed from every other stored text of the project
// (storage.erasure); amounts, statuses and links stay, so balances and stats are unchanged.
import { findAffiliate, loadAffiliateView, type AffiliateRef } from '../affiliates/affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { Currency } from '../model/money.js'
import { findReferral, referralViews, type ReferralRef } from '../affiliates/referrals.js'
import type { Page, Affiliate, AffiliateApplication, Referral } from '../model/types.js'
import type { StorageTx, TextReplacement } from '../ports/storage.js'
import { taxDetailsView, type TaxDetailsView } from '../affiliates/tax-details.js'
import { conversionView, couponView, payoutView, type AffiliateView, type ConversionView, type CouponView, type PayoutView, type ReferralView } from '../rules/views.js'

/** What the affiliate record holds about the person beyond the public record: contact and payment details. */
export interface PersonalDetails {
  email: string
  name: string | null
  paymentMethod: string | null
  paymentDetails: string | null
  payoutMethod: string | null
  paypalEmail: string | null
  wiseEmail: string | null
  wiseAccountId: string | null
  /** The Stripe Connect account it is paid to. */
  stripeAccountId: string | null
  customFields: Record<string, unknown> | null
  locale: string | null
  emailOptOut: string[] | null
}

/** A mail the program wrote to the person (its log entry; the text is composed when sent). */
export interface ExportedMail {
  id: number
  kind: string
  recipient: string
  status: string
  createdAt: Date
  sentAt: Date | null
}

export interface AffiliateExport {
  affiliate: AffiliateView
  personal: PersonalDetails
  /** The mails to them, newest first. */
  mails: ExportedMail[]
  /** The tax id only masked: the year-end totals are the one place it is shown in full. */
  taxDetails: TaxDetailsView | null
  referrals: ReferralView[]
  conversions: ConversionView[]
  payouts: PayoutView[]
  coupons: CouponView[]
}

export interface ReferralExport {
  referral: ReferralView
  conversions: ConversionView[]
  /** The payment providers' customer ids known for its email. */
  customerIds: Array<{ provider: string; externalId: string }>
}

/** The placeholder email of an erased affiliate or referred user: unique, never deliverable (RFC 2606 .invalid). */
export const erasedEmail = (kind: 'affiliate' | 'referral', id: number) => `erased-${kind === 'affiliate' ? '' : 'referral-'}${id}@erased.invalid`
/** Whether an address is an erased affiliate's or referred user's placeholder. */
export const isErasedEmail = (email: string) => /^erased-(referral-)?\d+@erased\.invalid$/.test(email)
/** What an erased name becomes in the texts that held it. */
export const ERASED_TEXT = '[erased]'

/** Every item of a paged list, a page at a time. */
async function everyItem<T>(read: (window: { limit: number; offset: number }) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = []
  for (let offset = 0; ; offset += 100) {
    const page = await read({ limit: 100, offset })
    items.push(...page.items)
    if (offset + 100 >= page.total) return items
  }
}

/** `from` and, when JSON writes it differently (quotes, backslashes), its JSON form too. */
function replacements(from: string | null | undefined, to: string): TextReplacement[] {
  if (!from || from.trim() === '') return []
  const json = JSON.stringify(from).slice(1, -1)
  return json === from ? [{ from, to }] : [{ from, to }, { from: json, to }]
}

function personalDetails(affiliate: Affiliate): PersonalDetails {
  return {
    email: affiliate.email,
    name: affiliate.name,
    paymentMethod: affiliate.paymentMethod,
    paymentDetails: affiliate.paymentDetails,
    payoutMethod: affiliate.payoutMethod,
    paypalEmail: affiliate.paypalEmail,
    wiseEmail: affiliate.wiseDetails?.email ?? null,
    wiseAccountId: affiliate.wiseDetails?.accountId ?? null,
    stripeAccountId: affiliate.stripeAccountId,
    customFields: affiliate.customFields,
    locale: affiliate.locale,
    emailOptOut: affiliate.emailOptOut,
  }
}

/**
 * An application's answers (website, promotion, text fields) as JSON string values: replaced only
 * where a whole value is one of them (a short answer may be a word of anything else), and as bare
 * text too when long enough to be theirs alone.
 */
function answerReplacements(application: AffiliateApplication | null): TextReplacement[] {
  if (!application) return []
  const answers = [application.website, application.promotion, application.rejectionReason, ...Object.values(application.fields)]
  return answers.flatMap((answer) => {
    if (typeof answer !== 'string' || answer.trim() === '') return []
    const whole = [{ from: JSON.stringify(answer), to: JSON.stringify(ERASED_TEXT) }]
    return answer.length >= 8 ? [...whole, ...replacements(answer, ERASED_TEXT)] : whole
  })
}

export function personalDataService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function conversionsOf(tx: StorageTx, filter: { affiliateId?: number; referredUserId?: number }, currency: Currency): Promise<ConversionView[]> {
    const now = ctx.clock.now()
    const conversions = await everyItem((window) => tx.conversions.list(projectId, { ...window, ...filter }))
    return conversions.map((conversion) => conversionView(conversion, currency, now))
  }

  async function exportAffiliate(tx: StorageTx, affiliate: Affiliate, currency: Currency): Promise<AffiliateExport> {
    const referrals = await everyItem((window) => tx.referrals.list(projectId, { ...window, affiliateId: affiliate.id }))
    const payouts = await everyItem((window) => tx.payouts.list(projectId, { ...window, affiliateId: affiliate.id }))
    const coupons = await everyItem((window) => tx.coupons.list(projectId, { ...window, affiliateId: affiliate.id }))
    return {
      affiliate: await loadAffiliateView(ctx, tx, affiliate),
      personal: personalDetails(affiliate),
      mails: (await everyItem((window) => tx.mail.list(projectId, { ...window, affiliateId: affiliate.id }))).map((mail) => ({
        id: mail.id,
        kind: mail.kind,
        recipient: mail.recipient,
        status: mail.status,
        createdAt: mail.createdAt,
        sentAt: mail.sentAt,
      })),
      taxDetails: taxDetailsView(affiliate.taxDetails),
      referrals: await referralViews(tx, projectId, referrals),
      conversions: await conversionsOf(tx, { affiliateId: affiliate.id }, currency),
      payouts: payouts.map(payoutView),
      coupons: coupons.map((coupon) => couponView(coupon, affiliate)),
    }
  }

  async function exportReferral(tx: StorageTx, referral: Referral, currency: Currency): Promise<ReferralExport> {
    const [view] = await referralViews(tx, projectId, [referral])
    return {
      referral: view!,
      conversions: await conversionsOf(tx, { referredUserId: referral.id }, currency),
      customerIds: await tx.erasure.customerIds(projectId, referral.email),
    }
  }

  const currencyOf = async () => new Currency((await ctx.project()).settings.currency)

  return {
    async exportAffiliate(ref: AffiliateRef): Promise<AffiliateExport> {
      const currency = await currencyOf()
      return storage.transaction(async (tx) => exportAffiliate(tx, await findAffiliate(tx, projectId, ref), currency))
    },

    /**
     * Replaces the affiliate's email, name, referral code, payment and tax details by placeholders
     * (its status becomes inactive and its coupons inactive), and scrubs its email, PayPal and Wise
     * emails from every stored text of the project, with its name, code and payment details where
     * they stand beside one of those. Its conversions, payouts and totals stay as they are.
     */
    async eraseAffiliate(ref: AffiliateRef): Promise<AffiliateExport> {
      const currency = await currencyOf()
      return storage.transaction(async (tx) => {
        const affiliate = await findAffiliate(tx, projectId, ref)
        const email = erasedEmail('affiliate', affiliate.id)
        const code = `erased${affiliate.id}`
        await tx.affiliates.update(projectId, affiliate.id, {
          email,
          name: null,
          referralCode: code,
          status: 'inactive',
          paymentMethod: null,
          paymentDetails: null,
          payoutMethod: null,
          paypalEmail: null,
          wiseDetails: null,
          customFields: null,
          application: null,
          taxDetails: null,
          stripeAccountId: null,
        })
        // Mail not yet sent to them (queued, or being sent) is skipped, never sent to the placeholder.
        const unsent = { affiliateId: affiliate.id, statuses: ['queued', 'sending'] } as const
        const skipped = { status: 'skipped', nextAttemptAt: null, leaseUntil: null, lastReply: 'the affiliate was erased', updatedAt: ctx.clock.now() } as const
        await tx.mail.updateAll(projectId, unsent, skipped)
        for (const coupon of await everyItem((window) => tx.coupons.list(projectId, { ...window, affiliateId: affiliate.id }))) {
          if (coupon.status === 'active') await tx.coupons.update(projectId, coupon.id, { status: 'inactive' })
        }
        await tx.erasure.scrub(projectId, {
          everywhere: [
            ...replacements(affiliate.email, email),
            ...replacements(affiliate.paypalEmail, email),
            ...replacements(affiliate.wiseDetails?.email, email),
          ].filter((entry) => entry.from.toLowerCase() !== email),
          alongside: [
            ...replacements(affiliate.name, ERASED_TEXT),
            ...replacements(affiliate.paymentDetails, ERASED_TEXT),
            ...replacements(affiliate.referralCode, code),
            ...replacements(affiliate.wiseDetails?.accountId, ERASED_TEXT),
            ...answerReplacements(affiliate.application),
          ],
        })
        return exportAffiliate(tx, (await tx.affiliates.get(projectId, affiliate.id))!, currency)
      })
    },

    async exportReferral(ref: ReferralRef): Promise<ReferralExport> {
      const currency = await currencyOf()
      return storage.transaction(async (tx) => exportReferral(tx, await findReferral(tx, projectId, ref), currency))
    },

    /**
     * Replaces the referred user's email by a placeholder and scrubs it, and the payment
     * providers' customer ids known for it, from every stored text of the project. Its
     * conversions keep their amounts and their affiliate.
     */
    async eraseReferral(ref: ReferralRef): Promise<ReferralExport> {
      const currency = await currencyOf()
      return storage.transaction(async (tx) => {
        const referral = await findReferral(tx, projectId, ref)
        const email = erasedEmail('referral', referral.id)
        const customers = await tx.erasure.customerIds(projectId, referral.email)
        await tx.referrals.update(projectId, referral.id, { email })
        const customerIds = customers.map((customer, index) => replacements(customer.externalId, `erased-customer-${referral.id}-${index + 1}`))
        // A short or numeric id (Lemon Squeezy's) could be part of another text: only beside the email.
        const distinctive = (id: TextReplacement[]) => id[0]!.from.length >= 6 && !/^\d+$/.test(id[0]!.from)
        await tx.erasure.scrub(projectId, {
          everywhere: [...(referral.email === email ? [] : replacements(referral.email, email)), ...customerIds.filter(distinctive).flat()],
          alongside: customerIds.filter((id) => !distinctive(id)).flat(),
        })
        return exportReferral(tx, (await tx.referrals.get(projectId, referral.id))!, currency)
      })
    },
  }
}
