// The review queue: conversions held in `review`, with why (the reason recorded when it was held:
// a fraud rule or the program's fraudCheck, docs/fraud.md, or an inactive affiliate), approved or
// rejected one by one or in bulk through conversions.update, as the API does.
import { NotFoundError, ValidationError } from '../../core/model/errors.js'
import type { AffiliateView, ConversionView } from '../../core/rules/views.js'
import { html } from '../../web/html.js'
import { day, money } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'
import type { AdminProgram } from '../program.js'
import { allConversions } from '../scan.js'

const MAX_IDS = 500

function reasonOf(conversion: ConversionView, affiliate: AffiliateView | null): string {
  if (conversion.reviewReason !== null) return sentence(conversion.reviewReason)
  // Held before reasons were recorded, or put in review by hand: what can be told now.
  if (!affiliate) return 'Affiliate not found'
  if (conversion.customerEmail !== null && conversion.customerEmail.toLowerCase() === affiliate.email.toLowerCase()) return 'Self-referral: the customer is the affiliate'
  if (affiliate.status !== 'active') return `Affiliate is ${affiliate.status}`
  return 'Held for review'
}

const sentence = (reason: string) => reason.charAt(0).toUpperCase() + reason.slice(1)

/** The affiliate of each conversion, read once each; null for one that is gone. */
export async function affiliatesOf(program: AdminProgram, conversions: ConversionView[]): Promise<Map<number, AffiliateView | null>> {
  const found = new Map<number, AffiliateView | null>()
  for (const { affiliateId } of conversions) {
    if (found.has(affiliateId)) continue
    found.set(affiliateId, await program.affiliates.get(affiliateId).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error))))
  }
  return found
}

export async function reviewPage({ program, url, paths, csrf }: AdminRequest): Promise<AdminResult> {
  const queue = (await allConversions(program)).filter((conversion) => conversion.status === 'review')
  const affiliates = await affiliatesOf(program, queue)
  const done = url.searchParams.get('done')
  const body = html`<h1>Review queue</h1>
${done !== null && /^[0-9]{1,4}$/.test(done) ? html`<p class="notice" role="status">${done} conversion${done === '1' ? '' : 's'} decided.</p>` : null}
<section class="card">
${
  queue.length === 0
    ? html`<p class="muted">Nothing waits for review.</p>`
    : html`<form method="post" action="${paths.review}">
<input type="hidden" name="csrf" value="${csrf}">
<div class="table-wrap"><table>
<caption class="skip">Conversions in review</caption>
<thead><tr><th scope="col">Select</th><th scope="col">Conversion</th><th scope="col">Date</th><th scope="col">Affiliate</th><th scope="col">Customer</th><th scope="col" class="num">Commission</th><th scope="col">Reason</th></tr></thead>
<tbody>${queue.map((conversion) => {
        const affiliate = affiliates.get(conversion.affiliateId) ?? null
        return html`<tr data-conversion="${conversion.id}"><td><input type="checkbox" name="id" value="${conversion.id}" id="review-${conversion.id}" aria-label="Select conversion ${conversion.id}"></td><td>#${conversion.id}</td><td>${day(conversion.createdAt)}</td><td>${affiliate?.email ?? `#${conversion.affiliateId}`}</td><td>${conversion.customerEmail ?? ''}</td><td class="num">${money(conversion.value, conversion.currency)}</td><td data-reason>${reasonOf(conversion, affiliate)}</td></tr>`
      })}</tbody>
</table></div>
<div class="actions"><button type="submit" name="decision" value="approve">Approve selected</button><button type="submit" class="secondary" name="decision" value="reject">Reject selected</button></div>
</form>`
}
</section>`
  return { title: 'Review queue', body }
}

/** The ids of checked boxes: whole numbers, at least one, at most MAX_IDS. */
export function checkedIds(form: URLSearchParams, name: string): number[] {
  const raw = form.getAll(name)
  if (raw.length === 0) throw new ValidationError(name, 'select at least one row')
  if (raw.length > MAX_IDS) throw new ValidationError(name, `select at most ${MAX_IDS} rows`)
  const ids = raw.map((value) => (/^[1-9][0-9]{0,14}$/.test(value) ? Number(value) : NaN))
  if (ids.some((id) => Number.isNaN(id))) throw new ValidationError(name, 'a selected row is not valid')
  return [...new Set(ids)]
}

export async function decideReview({ paths, changes }: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const decision = form.get('decision')
  if (decision !== 'approve' && decision !== 'reject') throw new ValidationError('decision', 'choose approve or reject')
  const ids = checkedIds(form, 'id')
  // All the checked conversions are decided, each with its entry, or none is.
  await changes(async ({ program, audit }) => {
    for (const id of ids) {
      const conversion = await program.conversions.get(id)
      if (conversion.status !== 'review') throw new ValidationError('id', `conversion #${id} is not in review`)
    }
    for (const id of ids) {
      await program.conversions.update(id, { status: decision === 'approve' ? 'active' : 'rejected' })
      await audit(decision === 'approve' ? 'conversion.approve' : 'conversion.reject', `conversion:${id}`)
    }
  })
  return { redirect: `${paths.review}?done=${ids.length}` }
}
