// Emails: the mail log (docs/email.md "The log"): each mail with its kind, recipient, status,
// attempts and the SMTP server's last reply; a mail not being sent can be retried (it is due at
// once and goes at the mail dispatcher's next pass).
import { MAIL_STATUSES, type MailStatus } from '../../core/model/mail-kinds.js'
import { html } from '../../web/html.js'
import { pageNumber, pager } from '../../web/pager.js'
import { day } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'

const PER_PAGE = 50

export async function emailsPage({ program, url, paths, csrf }: AdminRequest): Promise<AdminResult> {
  const page = pageNumber(url)
  const statusParam = url.searchParams.get('status') ?? ''
  const status = MAIL_STATUSES.find((candidate) => candidate === statusParam)
  if (page === null || (statusParam !== '' && !status)) {
    return { title: 'Emails', status: 400, body: html`<h1>Emails</h1><p class="error" role="alert">The page number must be a whole number from 1, and the status one of ${MAIL_STATUSES.join(', ')}.</p>` }
  }
  const list = await program.mail.list({ limit: PER_PAGE, offset: (page - 1) * PER_PAGE, ...(status ? { status } : {}) })
  const notice = url.searchParams.get('retried')
  const retry = (id: number, current: MailStatus) =>
    current === 'sending'
      ? null
      : html`<form class="inline" method="post" action="${paths.emailRetry(id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Retry email ${id}">Retry</button></form>`
  const body = html`<h1>Emails</h1>
${notice !== null && /^[0-9]{1,15}$/.test(notice) ? html`<p class="notice" role="status">Email #${notice} is queued again: the mail dispatcher sends it at its next pass.</p>` : null}
<form method="get" action="${paths.emails}" class="inline"><label for="email-status">Status</label> <select id="email-status" name="status"><option value="">any</option>${MAIL_STATUSES.map(
    (candidate) => html`<option value="${candidate}"${candidate === status ? html` selected` : null}>${candidate}</option>`,
  )}</select> <button type="submit" class="secondary">Show</button></form>
<section class="card">
${
  list.items.length === 0
    ? html`<p class="muted">No emails yet. Mails are queued with the changes that cause them and sent by the mail dispatcher (config <code>email</code>).</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Emails"><table>
<thead><tr><th scope="col">Email</th><th scope="col">Queued</th><th scope="col">Kind</th><th scope="col">To</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last reply</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.items.map(
        (mail) =>
          html`<tr data-email="${mail.id}"><td>#${mail.id}</td><td>${day(mail.createdAt)}</td><td>${mail.kind.replace(/_/g, ' ')}</td><td>${mail.recipient}</td><td><span class="badge" data-email-status>${mail.status}</span></td><td class="num">${mail.attempts}</td><td><code>${(mail.lastReply ?? '').slice(0, 200)}</code></td><td>${retry(mail.id, mail.status)}</td></tr>`,
      )}</tbody>
</table></div>`
}
${pager(paths.emails, page, PER_PAGE, list.total, 'Emails')}
</section>`
  return { title: 'Emails', body }
}

export async function retryEmail({ paths, changes }: AdminRequest, id: number): Promise<AdminResult> {
  await changes(async ({ program, audit }) => {
    await program.mail.retry(id)
    await audit('email.retry', `email:${id}`)
  })
  return { redirect: `${paths.emails}?retried=${id}` }
}
