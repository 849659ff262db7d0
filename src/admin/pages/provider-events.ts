// Provider events: what Stripe, Paddle and Lemon Squeezy sent, newest first, and what each did; a
// waiting or ignored event can be replayed (when the console has `providerEvents`).
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { day } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'

const PER_PAGE = 50
const REPLAYABLE = new Set(['waiting', 'ignored'])

export async function providerEventsPage({ program, url, paths, csrf, providerEvents }: AdminRequest): Promise<AdminResult> {
  const page = pageNumber(url)
  if (page === null) return { title: 'Provider events', status: 400, body: html`<h1>Provider events</h1><p class="error" role="alert">The page number must be a whole number from 1.</p>` }
  const list = await program.providerEvents.list({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE })
  const replay = (id: number, status: string) =>
    providerEvents && REPLAYABLE.has(status)
      ? html`<form class="inline" method="post" action="${paths.providerEventReplay(id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Replay event ${id}">Replay</button></form>`
      : null
  const body = html`<h1>Provider events</h1>
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">No payment-provider events received yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Provider events received"><table>
<thead><tr><th scope="col">Received</th><th scope="col">Provider</th><th scope="col">Event</th><th scope="col">Reference</th><th scope="col">Outcome</th><th scope="col">What it did</th><th scope="col">Conversion</th>${providerEvents ? html`<th scope="col">Actions</th>` : null}</tr></thead>
<tbody>${list.items.map(
        (event) =>
          html`<tr data-provider-event="${event.id}"><td>${day(event.createdAt)}</td><td>${event.provider}</td><td>#${event.id} ${event.type}<br><span class="muted">${event.eventId}</span></td><td>${event.reference ?? ''}</td><td><span class="badge">${event.status}</span>${event.waitingFor === null ? null : html`<br><span class="muted">for ${event.waitingFor}</span>`}</td><td>${event.detail ?? ''}</td><td>${event.conversionId === null ? '' : `#${event.conversionId}`}</td>${providerEvents ? html`<td>${replay(event.id, event.status)}</td>` : null}</tr>`,
      )}</tbody>
</table></div>`
}
${pager(paths.providerEvents, page, PER_PAGE, list.total, 'Provider events')}
</section>`
  return { title: 'Provider events', body }
}

/** Applies the event again (the provider's secret is not needed: what was recorded of it is). */
export async function replayProviderEvent({ paths, providerEvents, audit }: AdminRequest, id: number): Promise<AdminResult> {
  if (!providerEvents) return { title: 'Not done', status: 404, body: html`<h1>Not done</h1><p class="error" role="alert">Replaying needs createAdminConsole's providerEvents option.</p>` }
  const result = await providerEvents.replay(id)
  await audit('provider_event.replay', `provider_event:${id}`, `${result.replayed ? 'replayed' : 'not replayed'}: ${result.event.status}`)
  const body = html`<h1>Event replayed</h1>
<section class="card"><p role="status" data-replay-status="${result.event.status}">${result.message}.</p>
<p><a href="${paths.providerEvents}">Back to provider events</a></p></section>`
  return { title: result.replayed ? 'Event replayed' : 'Event not replayed', body }
}
