// Payout requests (docs/payouts.md "Payout requests"): with `payouts.requests`, an affiliate whose
// payable balance reaches the minimum asks to be paid; the request stays open until a payout is
// recorded for the affiliate, which marks it paid.
import { findAffiliate, type AffiliateRef } from '../affiliates/affiliates.js'
import { listWindow } from '../ports/conflicts.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, ValidationError } from '../model/errors.js'
import { payoutPaid, payoutRequested } from '../ports/events.js'
import { Currency } from '../model/money.js'
import { payableBalance, payoutTerms } from '../rules/payout-terms.js'
import { isDue } from './payouts-due.js'
import { listPayoutRequestsInput, validate, type ListPayoutRequestsInput } from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { Affiliate, Payout, PayoutRequest, PayoutRequestStatus } from '../model/types.js'
import { lockAffiliate } from '../ports/row-locks.js'

export interface PayoutRequestView {
  id: number
  affiliateId: number
  affiliateEmail: string | null
  amount: string
  currency: string
  status: PayoutRequestStatus
  payoutId: number | null
  createdAt: Date
  resolvedAt: Date | null
}

/** Marks the affiliate's open requests paid by this payout, in its transaction, with their events. */
export async function answerRequests(tx: StorageTx, payout: Payout, affiliate: Affiliate, currency: Currency): Promise<void> {
  const open = { affiliateId: affiliate.id, status: 'open' } as const
  const answered = await tx.payoutRequests.updateAll(payout.projectId, open, { status: 'paid', payoutId: payout.id, resolvedAt: payout.createdAt })
  for (const request of answered) await tx.outbox.enqueue(payoutPaid(request, payout, { affiliate, at: payout.createdAt, currency }))
}

export function payoutRequestsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  function view(request: PayoutRequest, email: string | null): PayoutRequestView {
    return {
      id: request.id,
      affiliateId: request.affiliateId,
      affiliateEmail: email,
      amount: new Currency(request.currency).amount(request.amount).format(),
      currency: request.currency,
      status: request.status,
      payoutId: request.payoutId,
      createdAt: request.createdAt,
      resolvedAt: request.resolvedAt,
    }
  }

  return {
    /**
     * The affiliate asks to be paid its payable balance: refused (409) when the program takes no
     * requests, 400 when the balance is below the minimum; an open request is answered as it is.
     */
    async request(ref: AffiliateRef): Promise<PayoutRequestView> {
      const project = await ctx.project()
      const settings = project.settings.payouts
      if (!settings?.requests) throw new ConflictError('this program does not take payout requests')
      const currency = new Currency(project.settings.currency)
      const minimum = currency.parse(settings.minimumAmount, 'payouts.minimumAmount', true).minor
      const terms = payoutTerms(settings, (at) => ctx.dayIn(project, at))
      return storage.transaction(async (tx) => {
        const found = await findAffiliate(tx, projectId, ref)
        // The lock makes two requests of one affiliate run one after another: one open request.
        const affiliate = await lockAffiliate(tx, projectId, found.id)
        const open = await tx.payoutRequests.first(projectId, { affiliateId: affiliate.id, status: 'open' })
        if (open) return view(open, affiliate.email)
        const now = ctx.clock.now()
        const payable = payableBalance(await tx.conversions.listOpen(projectId, affiliate.id), affiliate.totals.credit, (c) => terms.isPayable(c.holdUntil, now))
        if (!isDue(payable.amount, minimum)) {
          throw new ValidationError('amount', `the payable balance of ${currency.amount(payable.amount).format()} is below the minimum payout of ${currency.amount(minimum).format()}`)
        }
        const saved = await tx.payoutRequests.insert({ projectId, affiliateId: affiliate.id, amount: payable.amount, currency: currency.code, status: 'open', payoutId: null, resolvedAt: null, createdAt: now })
        await tx.outbox.enqueue(payoutRequested(saved, { affiliate, at: now, currency }))
        return view(saved, affiliate.email)
      })
    },

    /** Newest first. */
    async requests(input: ListPayoutRequestsInput = {}): Promise<{ items: PayoutRequestView[]; total: number; limit: number; offset: number }> {
      const data = validate(listPayoutRequestsInput, input)
      const window = listWindow(data, 50, 200)
      const page = await storage.payoutRequests.list(projectId, {
        ...window,
        ...(data.status !== undefined ? { status: data.status } : {}),
        ...(data.affiliateId !== undefined ? { affiliateId: data.affiliateId } : {}),
      })
      const emails = new Map<number, string | null>()
      for (const request of page.items) {
        if (!emails.has(request.affiliateId)) emails.set(request.affiliateId, (await storage.affiliates.get(projectId, request.affiliateId))?.email ?? null)
      }
      return { items: page.items.map((request) => view(request, emails.get(request.affiliateId) ?? null)), total: page.total, ...window }
    },
  }
}
