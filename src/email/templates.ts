// The default message of each kind (docs/email.md "Messages"): subject, paragraphs and a button,
// drawn once as text and once as HTML in the program's colours. A host replaces any kind with a
// function of the same context returning { subject, text, html }.
import type { Translate, MessageKey } from '../core/model/i18n/translate.js'
import type { Locale } from '../core/model/i18n/locales.js'
import type { MailKind } from '../core/model/mail-kinds.js'
import type { ResolvedMailTheme } from './theme.js'

/** What a template gets: every value already formatted for the affiliate's language. */
export interface MailContext {
  kind: MailKind
  locale: Locale
  /** The catalogue of `locale` (English where it misses a key). */
  t: Translate
  /** The program's name (the portal theme's title). */
  program: string
  theme: ResolvedMailTheme
  affiliate: { id: number; email: string; name: string | null }
  /**
   * The kind's values, formatted: `amount` (commission, payout, ready), `date`, `expires` (sign-in, and approved with a sign-in link),
   * `reason` (rejected), `tier`, `month`, `method`, `earned`, `paid`, `balance`, `count` (summary).
   */
  values: Record<string, string>
  links: {
    /** The sign-in link of a sign_in mail, and of an approved one when the dispatcher has `signInLinks`; else the portal. */
    action: string | null
    /** The portal's settings page. */
    preferences: string | null
    /** The one-click unsubscribe link of a mail the affiliate may turn off; else null. */
    unsubscribe: string | null
  }
  /** The outbox event's payload, as written (docs/webhooks.md "Payloads"). */
  payload: Readonly<Record<string, unknown>>
}

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

export type MailTemplate = (context: MailContext) => RenderedMail
export type MailTemplates = Partial<Record<MailKind, MailTemplate>>

interface Layout {
  subject: MessageKey
  paragraphs: MessageKey[]
  action?: MessageKey
}

const LAYOUTS: Record<MailKind, Layout> = {
  sign_in: { subject: 'mail.sign_in.subject', paragraphs: ['mail.sign_in.body', 'mail.sign_in.ignore'], action: 'mail.sign_in.action' },
  application_received: { subject: 'mail.application_received.subject', paragraphs: ['mail.application_received.body'] },
  approved: { subject: 'mail.approved.subject', paragraphs: ['mail.approved.body', 'mail.approved.link'], action: 'mail.approved.action' },
  rejected: { subject: 'mail.rejected.subject', paragraphs: ['mail.rejected.body', 'mail.rejected.reason'] },
  new_commission: { subject: 'mail.new_commission.subject', paragraphs: ['mail.new_commission.body', 'mail.new_commission.held'], action: 'mail.action.dashboard' },
  commission_ready: { subject: 'mail.commission_ready.subject', paragraphs: ['mail.commission_ready.body'], action: 'mail.action.dashboard' },
  payout_sent: { subject: 'mail.payout_sent.subject', paragraphs: ['mail.payout_sent.body'], action: 'mail.action.dashboard' },
  tier_changed: { subject: 'mail.tier_changed.subject', paragraphs: ['mail.tier_changed.body'], action: 'mail.action.dashboard' },
  monthly_summary: {
    subject: 'mail.monthly_summary.subject',
    paragraphs: ['mail.monthly_summary.body', 'mail.monthly_summary.earned', 'mail.monthly_summary.conversions', 'mail.monthly_summary.paid', 'mail.monthly_summary.balance'],
    action: 'mail.action.dashboard',
  },
}

/** A paragraph is left out when a value it names is missing (no reason given, no hold). */
const NEEDS: Partial<Record<MessageKey, string>> = { 'mail.rejected.reason': 'reason', 'mail.new_commission.held': 'date', 'mail.approved.link': 'expires' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** The default message of the context's kind. */
export function defaultTemplate(context: MailContext): RenderedMail {
  const { t, values, links, theme } = context
  const params = { program: context.program, ...values }
  const layout = LAYOUTS[context.kind]
  const subject = t(layout.subject, params)
  const greeting = context.affiliate.name ? t('mail.greeting', { name: context.affiliate.name }) : t('mail.greeting_anonymous')
  const paragraphs = layout.paragraphs.filter((key) => !NEEDS[key] || values[NEEDS[key]!]).map((key) => t(key, params))
  const action = layout.action && links.action ? { label: t(layout.action), url: links.action } : null
  const footer = t('mail.footer', { program: context.program })
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '-- ',
    footer,
    ...(links.preferences ? [`${t('mail.preferences')}: ${links.preferences}`] : []),
    ...(links.unsubscribe ? [`${t('mail.unsubscribe')}: ${links.unsubscribe}`] : []),
  ].join('\n')
  const c = theme.colors
  const footerLinks = [
    links.preferences ? `<a href="${escapeHtml(links.preferences)}" style="color:${c.muted}">${escapeHtml(t('mail.preferences'))}</a>` : '',
    links.unsubscribe ? `<a href="${escapeHtml(links.unsubscribe)}" style="color:${c.muted}">${escapeHtml(t('mail.unsubscribe'))}</a>` : '',
  ].filter(Boolean)
  const html = `<!doctype html>
<html lang="${context.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:${c.background};color:${c.text};font-family:system-ui,-apple-system,'Segoe UI',sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:${c.surface};border:1px solid ${c.border};border-radius:8px">
<tr><td style="padding:20px 24px;border-bottom:3px solid ${c.primary};font-size:18px;font-weight:600">${theme.logoUrl ? `<img src="${escapeHtml(theme.logoUrl)}" alt="" height="28" style="vertical-align:middle;margin-right:8px">` : ''}${escapeHtml(context.program)}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:${c.primary};color:${c.onPrimary};border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid ${c.border};font-size:12px;color:${c.muted}">${escapeHtml(footer)}${footerLinks.length ? `<br>${footerLinks.join(' · ')}` : ''}</td></tr>
</table></td></tr></table>
</body></html>`
  return { subject, text, html }
}

/** The host's template of the kind, else the default. */
export function renderMail(context: MailContext, templates: MailTemplates = {}): RenderedMail {
  return (templates[context.kind] ?? defaultTemplate)(context)
}
