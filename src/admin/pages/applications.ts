// The applications queue (docs/onboarding.md): pending affiliates with what they told the
// application page, approved or rejected (with a reason) one by one through the program's
// applications.approve and reject, as the API does.
import { ValidationError } from '../../core/model/errors.js'
import type { AffiliateView } from '../../core/rules/views.js'
import { html, type Html } from '../../web/html.js'
import type { AdminRequest, AdminResult } from '../page.js'

const SHOWN = 50

const TEXT = {
  title: 'Applications',
  empty: 'No application waits for a decision.',
  approved: (email: string) => `${email} is approved: they can sign in to the portal now.`,
  rejected: (email: string) => `${email} is rejected.`,
  more: (total: number) => `${total} applications wait; the newest ${SHOWN} are shown.`,
  website: 'Website or channel',
  promotion: 'How they will promote',
  group: 'Sub-program',
  applied: 'Applied',
  terms: 'Terms accepted',
  decided: 'Decided',
  rejection: 'Reason for rejecting',
  applicationHeading: 'Application',
  reason: 'Reason for rejecting (optional, sent to the applicant)',
  approve: 'Approve',
  reject: 'Reject',
  noApplication: 'Added as pending by the owner: no application.',
} as const

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ')

/** What the affiliate told the application page, and the decision once made. */
export function applicationAnswers(affiliate: AffiliateView, labels: ReadonlyMap<string, string>): Html {
  const application = affiliate.application
  if (!application) return html`<p class="muted">${TEXT.noApplication}</p>`
  const rows: Array<[string, string]> = [
    [TEXT.website, application.website ?? ''],
    [TEXT.promotion, application.promotion ?? ''],
    // Under the field's label; a field no longer configured keeps its name.
    ...Object.entries(application.fields).map(([name, value]): [string, string] => [labels.get(name) ?? name, typeof value === 'boolean' ? (value ? 'yes' : 'no') : value]),
    [TEXT.group, affiliate.partnerSlug ?? ''],
    [TEXT.applied, minute(application.appliedAt)],
    [TEXT.terms, application.termsAcceptedAt ? minute(application.termsAcceptedAt) : 'no'],
    [TEXT.decided, application.decidedAt ? minute(application.decidedAt) : ''],
    [TEXT.rejection, application.rejectionReason ?? ''],
  ]
  return html`<dl class="answers">${rows.filter(([, value]) => value !== '').map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`
}

function decisionForms({ paths, csrf }: AdminRequest, affiliate: AffiliateView): Html {
  const reasonId = `reason-${affiliate.id}`
  return html`<div class="actions">
<form class="inline" method="post" action="${paths.applicationApprove(affiliate.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" aria-label="${TEXT.approve} ${affiliate.email}">${TEXT.approve}</button></form>
</div>
<form method="post" action="${paths.applicationReject(affiliate.id)}"><input type="hidden" name="csrf" value="${csrf}">
<label for="${reasonId}">${TEXT.reason}</label><textarea id="${reasonId}" name="reason" maxlength="1000"></textarea>
<div class="actions"><button type="submit" class="secondary" aria-label="${TEXT.reject} ${affiliate.email}">${TEXT.reject}</button></div>
</form>`
}

export async function applicationsPage(context: AdminRequest): Promise<AdminResult> {
  const { program, url } = context
  const page = await program.affiliates.list({ status: 'pending', limit: SHOWN })
  const approved = url.searchParams.get('approved')
  const rejected = url.searchParams.get('rejected')
  const notice = approved ? TEXT.approved(approved) : rejected ? TEXT.rejected(rejected) : null
  const body = html`<h1>${TEXT.title}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
${page.items.length === 0 ? html`<section class="card"><p class="muted">${TEXT.empty}</p></section>` : null}
${page.total > SHOWN ? html`<p class="muted">${TEXT.more(page.total)}</p>` : null}
${page.items.map(
  (affiliate) => html`<section class="card" data-application="${affiliate.email}" aria-labelledby="application-${affiliate.id}">
<h2 id="application-${affiliate.id}">${affiliate.name ?? affiliate.email} <span class="muted">${affiliate.email}</span></h2>
${applicationAnswers(affiliate, context.fieldLabels)}
${decisionForms(context, affiliate)}
</section>`,
)}`
  return { title: TEXT.title, body }
}

export async function approveApplication({ paths, changes }: AdminRequest, id: number): Promise<AdminResult> {
  const affiliate = await changes(async ({ program, audit }) => {
    const approved = await program.applications.approve(id)
    await audit('affiliate.approve', `affiliate:${id}`, approved.email)
    return approved
  })
  return { redirect: `${paths.applications}?approved=${encodeURIComponent(affiliate.email)}` }
}

export async function rejectApplication({ paths, changes }: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  const reason = (form.get('reason') ?? '').trim()
  if (reason.length > 1000) throw new ValidationError('reason', 'The reason must be at most 1000 characters.')
  const affiliate = await changes(async ({ program, audit }) => {
    const rejected = await program.applications.reject(id, { reason: reason === '' ? null : reason })
    await audit('affiliate.reject', `affiliate:${id}`, reason === '' ? rejected.email : `${rejected.email}: ${reason}`)
    return rejected
  })
  return { redirect: `${paths.applications}?rejected=${encodeURIComponent(affiliate.email)}` }
}

/** The affiliate page's section with its application, when it has one. */
export function applicationSection(affiliate: AffiliateView, labels: ReadonlyMap<string, string>): Html | null {
  if (!affiliate.application) return null
  return html`<section class="card" aria-labelledby="application-title"><h2 id="application-title">${TEXT.applicationHeading}</h2>${applicationAnswers(affiliate, labels)}</section>`
}
