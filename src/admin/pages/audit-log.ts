// The audit log: every change made from the console, newest first (also GET /api/v1/audit-log).
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import type { AdminRequest, AdminResult } from '../page.js'

const PER_PAGE = 50

export async function auditLogPage({ program, url, paths }: AdminRequest): Promise<AdminResult> {
  const page = pageNumber(url)
  if (page === null) return { title: 'Audit log', status: 400, body: html`<h1>Audit log</h1><p class="error" role="alert">The page number must be a whole number from 1.</p>` }
  const list = await program.auditLog.list({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE })
  const body = html`<h1>Audit log</h1>
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">Nothing has been changed from the console yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Audit log entries"><table>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">Detail</th></tr></thead>
<tbody>${list.items.map(
        (entry) => html`<tr data-audit="${entry.action}"><td><time datetime="${entry.at.toISOString()}">${entry.at.toISOString().slice(0, 19).replace('T', ' ')}</time></td><td>${entry.actorName}</td><td>${entry.action}</td><td>${entry.target ?? ''}</td><td>${entry.detail ?? ''}</td></tr>`,
      )}</tbody>
</table></div>`
}
${pager(paths.auditLog, page, PER_PAGE, list.total, 'Audit log')}
</section>`
  return { title: 'Audit log', body }
}
