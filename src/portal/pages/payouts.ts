// Payouts: the next payout and a payout request (docs/payouts.md), and what the program has paid
// the affiliate, newest first, paged.
import { ConflictError, ValidationError } from '../../core/model/errors.js'
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { day, money } from '../../web/format.js'
import type { PageResult, SignedInRequest } from '../page.js'
import type { NextPayout } from '../../core/payouts/payouts-due.js'
import type { PayoutRequestView } from '../../core/payouts/payout-requests.js'

const PER_PAGE = 25
const METHOD_LABELS: Record<string, string> = { manual: 'Manual', paypal: 'PayPal', wise: 'Wise', bank: 'Bank transfer', crypto: 'Crypto', other: 'Other' }

export async function payoutsPage(context: SignedInRequest, refusal?: string): Promise<PageResult> {
  const { program, affiliate, url, paths, csrf } = context
  const page = pageNumber(url)
  if (page === null) return { title: 'Payouts', status: 400, body: html`<h1>Payouts</h1><p class="error">The page number must be a whole number from 1.</p>` }
  const list = await program.payouts.list({ affiliateId: affiliate.id, limit: PER_PAGE, offset: (page - 1) * PER_PAGE })
  const next = await program.payouts.nextPayout(affiliate.id)
  const requests = (await program.settings()).payouts?.requests ?? false
  const open = requests ? (await program.payouts.requests({ affiliateId: affiliate.id, status: 'open', limit: 1 })).items[0] : undefined
  const requested = url.searchParams.get('requested') === '1'
  const body = html`<h1>Payouts</h1>
${requested ? html`<p class="notice" role="status">Your payout request is sent.</p>` : null}
${refusal ? html`<p class="error" role="alert">${refusal}</p>` : null}
${next ? nextPayoutCard(next) : null}
${requests && next ? requestCard(next, open, paths.payouts, csrf) : null}
${await stripeCard(context)}
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">No payouts yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Your payouts"><table>
<caption class="skip">Your payouts, newest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col" class="num">Amount</th><th scope="col">Method</th><th scope="col" class="num">Conversions settled</th></tr></thead>
<tbody>${list.items.map(
        (payout) => html`<tr><td>${day(payout.paymentDate)}</td><td class="num" data-payout="${payout.id}">${money(payout.amount, payout.currency)}</td><td>${METHOD_LABELS[payout.method] ?? payout.method}</td><td class="num">${payout.conversionsSettled}</td></tr>`,
      )}</tbody>
</table></div>`
}
${pager(paths.payouts, page, PER_PAGE, list.total, 'Payouts')}
</section>`
  return { title: 'Payouts', body }
}

/** The next scheduled payout and its amount, or how far below the minimum the affiliate is (docs/payouts.md). */
function nextPayoutCard(next: NextPayout) {
  const date = html`<time datetime="${next.date}">${next.date}</time>`
  return html`<section class="card" aria-labelledby="next-payout-title" data-next-payout>
<h2 id="next-payout-title">Next payout</h2>
${
  next.reachesMinimum
    ? html`<p>${money(next.amount, next.currency)} on ${date}.</p>`
    : html`<p>${money(next.belowMinimumBy, next.currency)} below the minimum payout of ${money(next.minimumAmount, next.currency)}: ${money(next.amount, next.currency)} will be payable on ${date}.</p>`
}
</section>`
}

/** Asking for a payout (docs/payouts.md "Payout requests"): possible once the payable balance reaches the minimum. */
function requestCard(next: NextPayout, open: PayoutRequestView | undefined, action: string, csrf: string) {
  let content
  if (open) content = html`<p data-request-status>You asked for ${money(open.amount, open.currency)} on ${day(open.createdAt)}; it is paid with the next payout.</p>`
  else if (next.dueNow) {
    content = html`<form method="post" action="${action}"><input type="hidden" name="csrf" value="${csrf}"><p>${money(next.payableNow, next.currency)} is payable now.</p><div class="actions"><button type="submit">Request payout</button></div></form>`
  } else content = html`<p class="muted">You can ask for a payout once ${money(next.minimumAmount, next.currency)} is payable (payable now: ${money(next.payableNow, next.currency)}; ${money(next.amount, next.currency)} will be payable on <time datetime="${next.date}">${next.date}</time>).</p>`
  return html`<section class="card" aria-labelledby="request-title"><h2 id="request-title">Request a payout</h2>${content}</section>`
}

/** Whether the affiliate's Stripe Connect onboarding applies: the portal has stripeConnect and the program pays through Stripe. */
async function stripeConnectOn({ program, stripeOnboarding }: SignedInRequest): Promise<boolean> {
  return stripeOnboarding !== null && (await program.settings()).payouts?.automatic?.stripe === true
}

/** Getting paid through Stripe Connect (docs/payouts.md "Stripe Connect"): the connected account, or the button that starts onboarding. */
async function stripeCard(context: SignedInRequest) {
  if (!(await stripeConnectOn(context))) return null
  const account = (await context.program.providerPayouts?.connectedAccount(context.affiliate.id)) ?? null
  const back = context.url.searchParams.get('stripe')
  const status =
    back === 'return'
      ? html`<p class="notice" role="status">Welcome back from Stripe. Payouts reach your account once Stripe has verified it.</p>`
      : back === 'refresh'
        ? html`<p class="notice" role="status">That Stripe link expired; start again below.</p>`
        : null
  return html`<section class="card" aria-labelledby="stripe-title" data-stripe-connect><h2 id="stripe-title">Get paid through Stripe</h2>${status}
${account ? html`<p>Payouts go to your Stripe account ending in <span data-stripe-account>${account.slice(-4)}</span>. To change its details, continue on Stripe.</p>` : html`<p>Connect a Stripe account to receive your payouts there.</p>`}
<form method="post" action="${context.paths.stripeConnect}"><input type="hidden" name="csrf" value="${context.csrf}"><div class="actions"><button type="submit">${account ? 'Continue on Stripe' : 'Connect with Stripe'}</button></div></form></section>`
}

/** Makes the onboarding link and shows it: the portal's forms may only post to itself (CSP form-action), so the affiliate follows a link to Stripe. */
export async function startStripeOnboarding(context: SignedInRequest): Promise<PageResult> {
  if (!(await stripeConnectOn(context))) return { title: 'Not found', status: 404, body: html`<h1>Not found</h1><p>This program does not pay through Stripe.</p>` }
  let link: string
  try {
    link = await context.stripeOnboarding!()
  } catch {
    // Stripe refusing or unreachable: the affiliate may try again; nothing was recorded but, at most, its account id.
    const shown = await payoutsPage(context, 'Stripe could not start the onboarding now; please try again in a few minutes.')
    return 'redirect' in shown ? shown : { ...shown, status: 502 }
  }
  return {
    title: 'Continue on Stripe',
    body: html`<h1>Continue on Stripe</h1><section class="card"><p>Stripe asks for your details and bank account, then sends you back here.</p><p><a class="button" href="${link}" data-stripe-link>Continue to Stripe</a></p></section>`,
  }
}

export async function requestPayout(context: SignedInRequest): Promise<PageResult> {
  try {
    await context.program.payouts.request(context.affiliate.id)
  } catch (error) {
    if (!(error instanceof ValidationError || error instanceof ConflictError)) throw error
    const shown = await payoutsPage(context, error.message)
    return 'redirect' in shown ? shown : { ...shown, status: error instanceof ConflictError ? 409 : 400 }
  }
  return { redirect: `${context.paths.payouts}?requested=1` }
}
