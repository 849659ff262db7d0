// Payouts sent through a provider (PayPal Payouts, Stripe Connect), as a state machine in the ledger
// (docs/payouts.md "Automatic payouts"): `processing` holds the amount as credit, so it is no longer
// payable; success settles the conversions oldest first as a manual payout does; failure releases
// the amount back to the balance. Every transition runs under the affiliate's row lock and only
// from `processing`, so a repeated report (a retried run, a replayed webhook) changes nothing.
import { recordConversionMovement, recordPayoutMovement } from '../rules/ledger-movements.js'
import { findAffiliate } from '../affiliates/affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, NotFoundError, ValidationError } from '../model/errors.js'
import { payoutCreated, payoutFailed } from '../ports/events.js'
import { computeBalances, ledgerDelta } from '../rules/ledger.js'
import { Currency } from '../model/money.js'
import type { StorageTx } from '../ports/storage.js'
import { isDue, minimumOf } from './payouts-due.js'
import { payableBalance, payoutTerms } from '../rules/payout-terms.js'
import type { Affiliate, Conversion, Payout, ProjectSettings, ProviderPayout, ProviderPayoutProvider } from '../model/types.js'
import { lockAffiliate } from '../ports/row-locks.js'

export interface StartProviderPayoutInput {
  /** Affiliate id or email. */
  affiliate: number | string
  /** Decimal amount in the program's currency ("50.00"). */
  amount: string
  provider: ProviderPayoutProvider
  /** A Stripe connected account id (acct_...), kept so a later run can resume the transfer. */
  destination?: string
}

export interface ProviderReport {
  /** The provider's status of the item, shown in the console. */
  itemStatus?: string | null
  reference?: string | null
  reply?: string | null
}

/** A Stripe connected account id. */
export const STRIPE_ACCOUNT = /^acct_[A-Za-z0-9]{1,100}$/

export type ProviderPayoutWithPayout = ProviderPayout & { payout: Payout }

/** Refuses a payout while another for the same affiliate is with a provider: its held money is not yet settled. */
export async function refuseWhileProcessing(tx: StorageTx, projectId: string, affiliateId: number): Promise<void> {
  const processing = await tx.providerPayouts.all(projectId, { state: 'processing', affiliateId })
  if (processing.length > 0) {
    throw new ConflictError(`payout ${processing[0]!.payoutId} of this affiliate is still processing with ${processing[0]!.provider}`, 'affiliateId')
  }
}

function refuseWhenOff(settings: ProjectSettings, provider: ProviderPayoutProvider): void {
  if (settings.payouts?.automatic?.[provider] !== true) {
    throw new ConflictError(`automatic payouts through ${provider} are off for this program (payouts.automatic.${provider})`, 'provider')
  }
}

const noTaxDetails = (affiliate: Affiliate) => `${affiliate.email} has no tax details on file, and this program requires them before paying (payouts.requireTaxDetails)`

export function providerPayoutsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function withPayout(tx: StorageTx, row: ProviderPayout): Promise<ProviderPayoutWithPayout> {
    return { ...row, payout: (await tx.payouts.get(projectId, row.payoutId))! }
  }

  /** Locks the affiliate, then reads the provider payout: a transition sees the previous one's result. */
  async function locked(tx: StorageTx, payoutId: number) {
    const payout = await tx.payouts.get(projectId, payoutId)
    if (!payout) throw new NotFoundError('payout not found', 'payoutId')
    const affiliate = await lockAffiliate(tx, projectId, payout.affiliateId)
    const row = await tx.providerPayouts.first(projectId, { payoutId })
    if (!row) throw new NotFoundError('this payout was not sent through a provider', 'payoutId')
    return { payout, affiliate, row }
  }

  function reported(report: ProviderReport) {
    return {
      ...(report.itemStatus !== undefined ? { itemStatus: report.itemStatus } : {}),
      ...(report.reference !== undefined ? { reference: report.reference } : {}),
      ...(report.reply !== undefined ? { reply: report.reply } : {}),
      updatedAt: ctx.clock.now(),
    }
  }

  /** The affiliate's paid conversions, newest first. */
  async function paidNewestFirst(tx: StorageTx, affiliateId: number) {
    const found: Conversion[] = []
    for (let offset = 0; ; offset += 500) {
      const page = await tx.conversions.list(projectId, { affiliateId, paid: true, limit: 500, offset })
      found.push(...page.items)
      if (page.items.length < 500) return found
    }
  }

  /** Marks the payout failed, with the provider's report, and tells the webhooks (payout.failed). */
  async function failed(tx: StorageTx, { payout, affiliate, row }: { payout: Payout; affiliate: Affiliate; row: ProviderPayout }, report: ProviderReport, currency: Currency) {
    await tx.payouts.update(projectId, payout.id, { status: 'failed', conversionsSettled: 0 })
    await tx.providerPayouts.update(projectId, row.id, { ...reported(report), state: 'failed' })
    const status = report.itemStatus !== undefined ? report.itemStatus : row.itemStatus
    const reason = report.reply !== undefined ? report.reply : row.reply
    await tx.outbox.enqueue(payoutFailed({ ...payout, status: 'failed' }, { provider: row.provider, status, reason }, { affiliate, at: ctx.clock.now(), currency }))
    return withPayout(tx, (await tx.providerPayouts.first(projectId, { payoutId: payout.id }))!)
  }

  /** Holds `amount` as a processing payout with the provider (under the affiliate's lock). */
  async function hold(
    tx: StorageTx,
    input: { affiliate: Affiliate; amount: bigint; currency: Currency; provider: ProviderPayoutProvider; destination: string | null; runPeriod: string | null; unpaid: bigint },
  ): Promise<ProviderPayoutWithPayout> {
    const { affiliate, amount } = input
    const now = ctx.clock.now()
    const payout = await tx.payouts.insert({
      projectId,
      affiliateId: affiliate.id,
      affiliateEmail: affiliate.email,
      amount,
      currency: input.currency.code,
      method: input.provider === 'paypal' ? 'paypal' : 'bank',
      status: 'processing',
      paymentDate: now,
      conversionsSettled: 0,
      unpaidAfter: input.unpaid - amount,
      createdAt: now,
    })
    // Held as credit: counted as paid (so not payable again) but matched to no conversion yet.
    await tx.affiliates.adjustTotals(projectId, affiliate.id, { credit: amount })
    await recordPayoutMovement(tx, payout, { paidValue: 0n, credit: amount })
    const row = await tx.providerPayouts.insert({
      projectId,
      payoutId: payout.id,
      affiliateId: affiliate.id,
      provider: input.provider,
      state: 'processing',
      itemStatus: null,
      reference: null,
      destination: input.destination,
      reply: null,
      runPeriod: input.runPeriod,
      updatedAt: now,
      createdAt: now,
    })
    return { ...row, payout }
  }

  const withPayouts = (rows: ProviderPayout[]) => Promise.all(rows.map(async (row) => ({ ...row, payout: (await storage.payouts.get(projectId, row.payoutId))! })))

  return {
    /** Records a payout as `processing` with the provider: its amount leaves the payable balance at once. */
    async start(input: StartProviderPayoutInput): Promise<ProviderPayoutWithPayout> {
      const { settings } = await ctx.project()
      refuseWhenOff(settings, input.provider)
      const currency = new Currency(settings.currency)
      const amount = currency.parse(input.amount, 'amount', false).minor
      return storage.transaction(async (tx) => {
        const found = await findAffiliate(tx, projectId, input.affiliate)
        const affiliate = await lockAffiliate(tx, projectId, found.id)
        await refuseWhileProcessing(tx, projectId, affiliate.id)
        if (settings.payouts?.requireTaxDetails === true && !affiliate.taxDetails) throw new ConflictError(noTaxDetails(affiliate), 'affiliateId')
        const before = computeBalances(affiliate.totals, await tx.conversions.heldSummary(projectId, affiliate.id, ctx.clock.now()))
        if (amount > before.unpaid) {
          throw new ValidationError('amount', `amount exceeds the affiliate's unpaid earnings of ${currency.amount(before.unpaid > 0n ? before.unpaid : 0n).format()}`)
        }
        return hold(tx, { affiliate, amount, currency, provider: input.provider, destination: input.destination ?? null, runPeriod: null, unpaid: before.unpaid })
      })
    },

    /**
     * A payout run's payout for one affiliate and period (docs/payouts.md "Payout runs"): under the
     * affiliate's lock, the one a run already made for this period is returned as it is (`created`
     * false); otherwise the affiliate's payable balance now, when it is due, is held as a new
     * payout. Whatever runs or processes meet, an affiliate gets at most one payout per period.
     */
    async startRun(input: { affiliateId: number; provider: ProviderPayoutProvider; destination: string | null; period: string }): Promise<{ sent: ProviderPayoutWithPayout; created: boolean } | { skipped: string }> {
      const project = await ctx.project()
      const { settings } = project
      refuseWhenOff(settings, input.provider)
      const currency = new Currency(settings.currency)
      const minimum = minimumOf(project, currency)
      const terms = payoutTerms(settings.payouts, (at) => ctx.dayIn(project, at))
      return storage.transaction(async (tx) => {
        const affiliate = await tx.affiliates.lockForUpdate(projectId, input.affiliateId)
        if (!affiliate) return { skipped: 'the affiliate no longer exists' }
        const earlier = await tx.providerPayouts.first(projectId, { affiliateId: affiliate.id, runPeriod: input.period })
        if (earlier) return { sent: await withPayout(tx, earlier), created: false }
        if (affiliate.status === 'blocked') return { skipped: 'the affiliate is blocked' }
        const processing = await tx.providerPayouts.all(projectId, { state: 'processing', affiliateId: affiliate.id })
        if (processing.length > 0) return { skipped: `payout ${processing[0]!.payoutId} is still processing with ${processing[0]!.provider}` }
        if (settings.payouts?.requireTaxDetails === true && !affiliate.taxDetails) return { skipped: noTaxDetails(affiliate) }
        const now = ctx.clock.now()
        const payable = payableBalance(await tx.conversions.listOpen(projectId, affiliate.id), affiliate.totals.credit, (c) => terms.isPayable(c.holdUntil, now))
        if (!isDue(payable.amount, minimum)) return { skipped: `no longer due: ${currency.amount(payable.amount).format()} payable` }
        const before = computeBalances(affiliate.totals, await tx.conversions.heldSummary(projectId, affiliate.id, now))
        const sent = await hold(tx, { affiliate, amount: payable.amount, currency, provider: input.provider, destination: input.destination, runPeriod: input.period, unpaid: before.unpaid })
        return { sent, created: true }
      })
    },

    /** Notes what the provider said without deciding the payout (a batch id, PENDING, UNCLAIMED). */
    async note(payoutId: number, report: ProviderReport): Promise<ProviderPayoutWithPayout> {
      return storage.transaction(async (tx) => {
        const { row } = await locked(tx, payoutId)
        if (row.state === 'processing') await tx.providerPayouts.update(projectId, row.id, reported(report))
        return withPayout(tx, (await tx.providerPayouts.first(projectId, { payoutId }))!)
      })
    },

    /** The provider paid: the held credit settles the conversions oldest first. Only from `processing`. */
    async settle(payoutId: number, report: ProviderReport = {}): Promise<ProviderPayoutWithPayout> {
      const currency = new Currency((await ctx.project()).settings.currency)
      return storage.transaction(async (tx) => {
        const { payout, affiliate, row } = await locked(tx, payoutId)
        if (row.state !== 'processing') return withPayout(tx, row)
        const now = ctx.clock.now()
        const settled = await tx.conversions.settleOldestFirst({ projectId, affiliateId: affiliate.id, budget: affiliate.totals.credit, now, payoutId })
        await tx.affiliates.adjustTotals(projectId, affiliate.id, { paidValue: settled.amount, credit: -settled.amount })
        await recordPayoutMovement(tx, payout, { paidValue: settled.amount, credit: -settled.amount }, now)
        await tx.payouts.update(projectId, payoutId, { status: 'paid', conversionsSettled: settled.count })
        await tx.providerPayouts.update(projectId, row.id, { ...reported(report), state: 'paid' })
        const paid = { ...payout, status: 'paid' as const, conversionsSettled: settled.count }
        await tx.outbox.enqueue(payoutCreated(paid, { affiliate, referred: null, at: now, currency }))
        return withPayout(tx, (await tx.providerPayouts.first(projectId, { payoutId }))!)
      })
    },

    /** The provider did not pay (failed, returned, blocked, reversed): the amount goes back to the balance. Only from `processing`. */
    async release(payoutId: number, report: ProviderReport = {}): Promise<ProviderPayoutWithPayout> {
      const currency = new Currency((await ctx.project()).settings.currency)
      return storage.transaction(async (tx) => {
        const { payout, affiliate, row } = await locked(tx, payoutId)
        if (row.state !== 'processing') return withPayout(tx, row)
        await tx.affiliates.adjustTotals(projectId, affiliate.id, { credit: -payout.amount })
        await recordPayoutMovement(tx, payout, { paidValue: 0n, credit: -payout.amount }, ctx.clock.now())
        return failed(tx, { payout, affiliate, row }, report, currency)
      })
    },

    /**
     * The provider took back a payout it had paid (a Stripe transfer reversed in full): the
     * conversions it settled are unpaid again and the rest of its amount leaves the credit, so the
     * whole amount is back in the balance. From `processing` it is a release; a failed payout stays as it is.
     * Both under the affiliate's lock, so a settle running at the same time is seen either way.
     */
    async reverse(payoutId: number, report: ProviderReport = {}): Promise<ProviderPayoutWithPayout> {
      const currency = new Currency((await ctx.project()).settings.currency)
      return storage.transaction(async (tx) => {
        const { payout, affiliate, row } = await locked(tx, payoutId)
        if (row.state === 'failed') return withPayout(tx, row)
        const now = ctx.clock.now()
        /** Marks a paid conversion unpaid again, not clawed back into credit; the amount that went back to unpaid. */
        const unpay = async (conversion: Conversion) => {
          const saved = (await tx.conversions.update(projectId, conversion.id, { paid: false, paidByPayoutId: null }))!
          const delta = ledgerDelta({ ...conversion, paidByPayoutId: null }, saved)
          await tx.affiliates.adjustTotals(projectId, affiliate.id, delta)
          await recordConversionMovement(tx, saved, { before: conversion, after: saved }, delta, now)
          return -(delta.paidValue ?? 0n)
        }
        const moveCredit = async (credit: bigint) => {
          if (credit === 0n) return
          await tx.affiliates.adjustTotals(projectId, affiliate.id, { credit })
          await recordPayoutMovement(tx, payout, { paidValue: 0n, credit }, now)
        }
        // Still processing, it settled nothing (none is paid by it): all of it is held credit, released below.
        const paid = await paidNewestFirst(tx, affiliate.id)
        let reopened = 0n
        for (const conversion of paid) if (conversion.paidByPayoutId === payoutId) reopened += await unpay(conversion)
        // What it left as credit goes back; when later payouts spent some of that credit, the
        // conversions it helped settle (newest first) are unpaid too, and what they paid beyond it
        // stays credit: paid falls by the payout's amount and credit never goes below zero.
        const rest = payout.amount - reopened
        const credit = affiliate.totals.credit
        if (rest <= credit) {
          await moveCredit(-rest)
          return failed(tx, { payout, affiliate, row }, report, currency)
        }
        let covered = credit
        for (const conversion of paid.filter((conversion) => conversion.paidByPayoutId !== payoutId)) {
          if (covered >= rest) break
          covered += await unpay(conversion)
        }
        await moveCredit(covered - rest - credit)
        return failed(tx, { payout, affiliate, row }, report, currency)
      })
    },

    /** The Stripe Connect account (acct_...) the affiliate is paid to, or null before onboarding. */
    async connectedAccount(affiliate: number | string): Promise<string | null> {
      return (await storage.transaction((tx) => findAffiliate(tx, projectId, affiliate))).stripeAccountId
    },

    /** Records the affiliate's Stripe Connect account (created for it by Connect onboarding). */
    async saveConnectedAccount(affiliate: number | string, accountId: string): Promise<void> {
      if (!STRIPE_ACCOUNT.test(accountId)) throw new ValidationError('accountId', 'must be a Stripe connected account id (acct_...)')
      await storage.transaction(async (tx) => {
        const found = await findAffiliate(tx, projectId, affiliate)
        await tx.affiliates.update(projectId, found.id, { stripeAccountId: accountId })
      })
    },

    async get(payoutId: number): Promise<ProviderPayoutWithPayout | null> {
      const row = await storage.providerPayouts.first(projectId, { payoutId })
      return row && { ...row, payout: (await storage.payouts.get(projectId, payoutId))! }
    },

    /** The payouts still with a provider, oldest first: what a run resumes after a crash. */
    async listProcessing(): Promise<ProviderPayoutWithPayout[]> {
      return withPayouts(await storage.providerPayouts.all(projectId, { state: 'processing' }))
    },

    /** The payouts runs made in a period (YYYY-MM), oldest first (docs/payouts.md "Payout runs"). */
    async listRun(period: string): Promise<ProviderPayoutWithPayout[]> {
      return withPayouts(await storage.providerPayouts.all(projectId, { runPeriod: period }))
    },
  }
}
