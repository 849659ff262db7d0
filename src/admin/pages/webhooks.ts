// Webhooks: endpoints (send a test event, rotate the signing secret) and the delivery log with
// each delivery's status and its last answer; retry one delivery (sent at once when the console
// has the dispatcher, else at the dispatcher's next pass).
import { randomBytes } from 'node:crypto'
import { ValidationError } from '../../core/model/errors.js'
import { EVENT_TYPES, type EventType } from '../../core/model/types.js'
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import type { AdminRequest, AdminResult } from '../page.js'

const PER_PAGE = 50

export async function webhooksPage({ program, url, paths, csrf, webhooks }: AdminRequest): Promise<AdminResult> {
  const page = pageNumber(url)
  if (page === null) return { title: 'Webhooks', status: 400, body: html`<h1>Webhooks</h1><p class="error" role="alert">The page number must be a whole number from 1.</p>` }
  const endpoints = await program.webhooks.list()
  const deliveries = await program.webhooks.deliveries({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE })
  const rows = []
  for (const delivery of deliveries.items) {
    const attempts = await program.webhooks.attempts(delivery.id)
    const last = attempts.at(-1)
    const answer = last ? [last.error, last.responseExcerpt].filter((part) => part !== null && part !== '').join(': ') : ''
    rows.push(html`<tr data-delivery="${delivery.id}"><td>#${delivery.id}</td><td>${delivery.eventType}</td><td>#${delivery.endpointId}</td><td><span class="badge" data-delivery-status>${delivery.status}</span></td><td class="num">${delivery.attempts}</td><td class="num">${delivery.lastStatusCode ?? ''}</td><td><code>${answer.slice(0, 200)}</code></td><td>${
      delivery.status === 'delivering'
        ? null
        : html`<form class="inline" method="post" action="${paths.deliveryRetry(delivery.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Retry delivery ${delivery.id}">Retry</button></form>`
    }</td></tr>`)
  }
  const notice = url.searchParams.get('retried')
  const body = html`<h1>Webhooks</h1>
${notice !== null && /^[0-9]{1,15}$/.test(notice) ? html`<p class="notice" role="status">Delivery #${notice} is queued again${webhooks ? ' and was sent' : ''}.</p>` : null}
<section class="card" aria-labelledby="endpoints-title">
<h2 id="endpoints-title">Endpoints</h2>
${
  endpoints.length === 0
    ? html`<p class="muted">No webhook endpoints yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Endpoint</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Active</th><th scope="col">Actions</th></tr></thead>
<tbody>${endpoints.map(
        (endpoint) => html`<tr><td>#${endpoint.id}</td><td>${endpoint.url}</td><td>${endpoint.events.join(', ')}</td><td>${endpoint.active ? 'Yes' : 'No'}</td><td>
${
  webhooks
    ? html`<form class="inline" method="post" action="${paths.webhookTest(endpoint.id)}"><input type="hidden" name="csrf" value="${csrf}"><label class="skip" for="test-type-${endpoint.id}">Test event for endpoint ${endpoint.id}</label><select id="test-type-${endpoint.id}" name="event_type">${EVENT_TYPES.map((type) => html`<option value="${type}">${type}</option>`)}</select> <button type="submit" class="secondary">Send test</button></form>`
    : null
}
<form class="inline" method="post" action="${paths.webhookRotate(endpoint.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Rotate secret of endpoint ${endpoint.id}">Rotate secret</button></form></td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section class="card" aria-labelledby="deliveries-title">
<h2 id="deliveries-title">Delivery log</h2>
${
  rows.length === 0
    ? html`<p class="muted">No deliveries yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Delivery</th><th scope="col">Event</th><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col" class="num">HTTP status</th><th scope="col">Last answer</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
${pager(paths.webhooks, page, PER_PAGE, deliveries.total, 'Deliveries')}
</section>`
  return { title: 'Webhooks', body }
}

export async function retryDelivery({ paths, webhooks, changes }: AdminRequest, id: number): Promise<AdminResult> {
  await changes(async ({ program, audit }) => {
    await program.webhooks.retry(id)
    await audit('webhook_delivery.retry', `delivery:${id}`)
  })
  // Sent once the retry is committed, outside the transaction.
  if (webhooks) await webhooks.dispatch()
  return { redirect: `${paths.webhooks}?retried=${id}` }
}

export async function sendTest({ program, paths, webhooks, audit }: AdminRequest, endpointId: number, form: URLSearchParams): Promise<AdminResult> {
  if (!webhooks) throw new ValidationError('event_type', 'test events need the webhook dispatcher (createAdminConsole option webhooks)')
  const type = EVENT_TYPES.find((candidate) => candidate === form.get('event_type'))
  if (!type) throw new ValidationError('event_type', 'choose an event type')
  await program.webhooks.get(endpointId)
  const result = await webhooks.sendTest(program.projectId, endpointId, type as EventType)
  await audit('webhook.test', `webhook:${endpointId}`, `${type}: ${result.success ? 'delivered' : 'failed'} (HTTP ${result.status})`)
  const body = html`<h1>Test event sent</h1>
<section class="card"><p role="status" data-test-result="${result.success ? 'success' : 'failure'}">${type} to endpoint #${endpointId}: ${result.success ? 'delivered' : 'not delivered'}, HTTP status ${result.status}.</p>
<p>Answer: <code>${result.response.slice(0, 500)}</code></p>
<p><a href="${paths.webhooks}">Back to webhooks</a></p></section>`
  return { title: 'Test event', body }
}

export async function rotateSecret({ paths, changes }: AdminRequest, endpointId: number): Promise<AdminResult> {
  const secret = `whsec_${randomBytes(24).toString('base64url')}`
  await changes(async ({ program, audit }) => {
    await program.webhooks.rotateSecret(endpointId, secret)
    await audit('webhook.rotate_secret', `webhook:${endpointId}`, 'the previous secret keeps signing for 24 hours')
  })
  const body = html`<h1>New signing secret</h1>
<section class="card">
<p>Endpoint #${endpointId} now signs with this secret. It is shown only once: copy it to the receiver now. The previous secret keeps signing beside it for 24 hours.</p>
<div class="copy"><label class="skip" for="new-secret">New secret</label><input id="new-secret" type="text" readonly value="${secret}"><button type="button" data-copy="new-secret" hidden>Copy secret</button><span id="new-secret-status" class="muted" role="status" aria-live="polite"></span></div>
<p><a href="${paths.webhooks}">Back to webhooks</a></p></section>`
  return { title: 'New signing secret', body }
}
