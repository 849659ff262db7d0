// Payouts made outside the service: settle eligible conversions oldest first, keep the rest as
// credit, never pay more than the unpaid balance, even when payouts race (docs/ledger.md "Payouts").
import { findAffiliate } from '../affiliates/affiliates.js'
import { listWindow } from '../ports/conflicts.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, NotFoundError, ValidationError } from '../model/errors.js'
import { payoutCreated } from '../ports/events.js'
import { computeBalances } from '../rules/ledger.js'
import { recordPayoutMovement } from '../rules/ledger-movements.js'
import { answerRequests } from './payout-requests.js'
import { refuseWhileProcessing } from './provider-payouts.js'
import { Currency } from '../model/money.js'
import {
  createPayoutInput,
  listPayoutsInput,
  recordPaidPayoutInput,
  validate,
  type CreatePayoutInput,
  type ListPayoutsInput,
  type RecordPaidPayoutInput,
} from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { Payout } from '../model/types.js'
import { payoutView, type PayoutView } from '../rules/views.js'
import { lockAffiliate } from '../ports/row-locks.js'

export function payoutsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  function parse(input: CreatePayoutInput, currency: Currency) {
    const data = validate(createPayoutInput, input)
    if (data.affiliateId === undefined && data.affiliateEmail === undefined) {
      throw new ValidationError('affiliateId', (name) => `${name('affiliateId')} or ${name('affiliateEmail')} is required`)
    }
    return { data, amount: currency.parse(data.amount, 'amount', false).minor }
  }

  async function pay(tx: StorageTx, { data, amount }: ReturnType<typeof parse>, currency: Currency, requireTaxDetails: boolean): Promise<Payout> {
    const found = await findAffiliate(tx, projectId, data.affiliateId ?? data.affiliateEmail!)
    if (data.affiliateId !== undefined && data.affiliateEmail !== undefined && found.email !== data.affiliateEmail) {
      throw new ValidationError('affiliateEmail', (name) => `${name('affiliateEmail')} does not match ${name('affiliateId')}`)
    }
    // The lock makes racing payouts for one affiliate run one after another.
    const affiliate = await lockAffiliate(tx, projectId, found.id)
    await refuseWhileProcessing(tx, projectId, affiliate.id)
    if (requireTaxDetails && !affiliate.taxDetails) {
      throw new ConflictError(`${affiliate.email} has no tax details on file, and this program requires them before paying (payouts.requireTaxDetails)`, 'affiliateId')
    }
    const now = ctx.clock.now()
    const held = await tx.conversions.heldSummary(projectId, affiliate.id, now)
    const before = computeBalances(affiliate.totals, held)
    if (amount > before.unpaid) {
      throw new ValidationError(
        'amount',
        `amount exceeds the affiliate's unpaid earnings of ${currency.amount(before.unpaid > 0n ? before.unpaid : 0n).format()}`,
      )
    }
    const saved = await tx.payouts.insert({
      projectId,
      affiliateId: affiliate.id,
      affiliateEmail: affiliate.email,
      amount,
      currency: currency.code,
      method: data.method ?? 'manual',
      status: 'paid',
      paymentDate: data.paymentDate ?? now,
      conversionsSettled: 0,
      unpaidAfter: before.unpaid - amount,
      createdAt: now,
    })
    const settled = await tx.conversions.settleOldestFirst({
      projectId,
      affiliateId: affiliate.id,
      budget: affiliate.totals.credit + amount,
      now,
      payoutId: saved.id,
    })
    const delta = { paidValue: settled.amount, credit: amount - settled.amount }
    await tx.affiliates.adjustTotals(projectId, affiliate.id, delta)
    await recordPayoutMovement(tx, saved, delta)
    const payout = { ...saved, conversionsSettled: settled.count }
    if (settled.count > 0) await tx.payouts.update(projectId, saved.id, { conversionsSettled: settled.count })
    await tx.outbox.enqueue(payoutCreated(payout, { affiliate, referred: null, at: now, currency }))
    await answerRequests(tx, payout, affiliate, currency)
    return payout
  }

  return {
    async create(input: CreatePayoutInput): Promise<PayoutView> {
      const { settings } = await ctx.project()
      const currency = new Currency(settings.currency)
      const request = parse(input, currency)
      return payoutView(await storage.transaction((tx) => pay(tx, request, currency, settings.payouts?.requireTaxDetails === true)))
    },

    /**
     * Records several payouts in one transaction (a batch paid through PayPal Payouts or Wise):
     * either every payout is recorded or, when one is refused, none is.
     */
    async createBatch(inputs: CreatePayoutInput[]): Promise<PayoutView[]> {
      if (!Array.isArray(inputs) || inputs.length === 0 || inputs.length > 1000) {
        throw new ValidationError('payouts', 'a batch holds 1 to 1000 payouts')
      }
      const { settings } = await ctx.project()
      const currency = new Currency(settings.currency)
      const requests = inputs.map((input) => parse(input, currency))
      const payouts = await storage.transaction(async (tx) => {
        const saved = []
        for (const request of requests) saved.push(await pay(tx, request, currency, settings.payouts?.requireTaxDetails === true))
        return saved
      })
      return payouts.map(payoutView)
    },

    /**
     * Records a payout made before, outside affiliate-kit (an imported tool's payout history): the
     * conversions it paid, already marked paid and in no payout, become this payout's; balances do
     * not change and no webhook is sent. Idempotent: when they all belong to one payout already,
     * that payout (`duplicate`). A conversion of another affiliate, not paid, not earning, or in
     * another payout: the request is refused, nothing is written.
     */
    async recordPaid(input: RecordPaidPayoutInput): Promise<{ payout: PayoutView; duplicate: boolean }> {
      const data = validate(recordPaidPayoutInput, input)
      const currency = (await ctx.project()).settings.currency
      const references = [...new Set(data.references)]
      return storage.transaction(async (tx) => {
        // The lock makes two runs recording the same payout take turns: the second finds the first's.
        const affiliate = await tx.affiliates.lockForUpdate(projectId, data.affiliateId)
        if (!affiliate) throw new NotFoundError('affiliate not found', 'affiliateId')
        const conversions = []
        for (const reference of references) {
          const conversion = await tx.conversions.first(projectId, { reference })
          if (!conversion || conversion.affiliateId !== affiliate.id) throw new NotFoundError(`no conversion ${reference} of this affiliate`, 'references')
          if (!conversion.paid || conversion.status !== 'active') {
            throw new ValidationError('references', `conversion ${reference} is not an earning conversion marked paid`)
          }
          conversions.push(conversion)
        }
        const payouts = new Set(conversions.map((conversion) => conversion.paidByPayoutId))
        const [only] = payouts
        if (payouts.size === 1 && only != null) return { payout: payoutView((await tx.payouts.get(projectId, only))!), duplicate: true }
        if (conversions.some((conversion) => conversion.paidByPayoutId !== null)) throw new ConflictError('some of these conversions are in another payout', 'references')
        const held = await tx.conversions.heldSummary(projectId, affiliate.id, ctx.clock.now())
        const payout = await tx.payouts.insert({
          projectId,
          affiliateId: affiliate.id,
          affiliateEmail: affiliate.email,
          amount: conversions.reduce((sum, conversion) => sum + conversion.value, 0n),
          currency,
          method: data.method ?? 'manual',
          status: 'paid',
          paymentDate: data.paymentDate,
          conversionsSettled: conversions.length,
          unpaidAfter: computeBalances(affiliate.totals, held).unpaid,
          createdAt: ctx.clock.now(),
        })
        for (const conversion of conversions) await tx.conversions.update(projectId, conversion.id, { paidByPayoutId: payout.id })
        return { payout: payoutView(payout), duplicate: false }
      })
    },

    async get(id: number): Promise<PayoutView> {
      const payout = await storage.payouts.get(projectId, id)
      if (!payout) throw new NotFoundError('payout not found', 'id')
      return payoutView(payout)
    },

    /** Newest first. */
    async list(input: ListPayoutsInput = {}): Promise<{ items: PayoutView[]; total: number; limit: number; offset: number }> {
      const data = validate(listPayoutsInput, input)
      const window = listWindow(data, 20, 200)
      const page = await storage.payouts.list(projectId, {
        ...window,
        ...(data.affiliateId !== undefined ? { affiliateId: data.affiliateId } : {}),
        ...(data.asOf !== undefined ? { upTo: data.asOf } : {}),
      })
      return { items: page.items.map(payoutView), total: page.total, ...window }
    },
  }
}
