// Provider events: what Stripe, Paddle and Lemon Squeezy sent, newest first, and what each did.
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { day } from '../../portal/format.js'
import type { AdminRequest, AdminResult } from '../page.js'

const PER_PAGE = 50

export async function providerEventsPage({ program, url, paths }: AdminRequest): Promise<AdminResult> {
  const page = pageNumber(url)
  if (page === null) return { title: 'Provider events', status: 400, body: html`<h1>Provider events</h1><p class="error" role="alert">The page number must be a whole number from 1.</p>` }
  const list = await program.providerEvents.list({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE })
  const body = html`<h1>Provider events</h1>
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">No payment-provider events received yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Provider events received"><table>
<thead><tr><th scope="col">Received</th><th scope="col">Provider</th><th scope="col">Event</th><th scope="col">Reference</th><th scope="col">Outcome</th><th scope="col">What it did</th><th scope="col">Conversion</th></tr></thead>
<tbody>${list.items.map(
        (event) => html`<tr><td>${day(event.createdAt)}</td><td>${event.provider}</td><td>${event.type}<br><span class="muted">${event.eventId}</span></td><td>${event.reference ?? ''}</td><td><span class="badge">${event.status}</span></td><td>${event.detail ?? ''}</td><td>${event.conversionId === null ? '' : `#${event.conversionId}`}</td></tr>`,
      )}</tbody>
</table></div>`
}
${pager(paths.providerEvents, page, PER_PAGE, list.total, 'Provider events')}
</section>`
  return { title: 'Provider events', body }
}
