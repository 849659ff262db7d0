// One mail's attempt, as plain functions of the dispatcher's settled configuration: decide whether
// it still goes (affiliate gone, topic turned off, too old), compose it in the affiliate's language,
// send it with its fixed Message-ID, record the outcome and the next attempt (docs/email.md).
import type { Clock } from '../core/model/clock.js'
import { AffiliateError } from '../core/model/errors.js'
import { chooseLocale, isLocale, type Locale } from '../core/model/i18n/locales.js'
import { translator } from '../core/model/i18n/translate.js'
import { MAIL_TOPIC, OPTIONAL_TOPICS, type MailStatus } from '../core/model/mail-kinds.js'
import type { MailStore } from '../core/ports/mail-store.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import { isErasedEmail } from '../core/project/personal-data.js'
import { payoutTerms } from '../core/rules/payout-terms.js'
import { dayFormatter } from '../core/model/calendar.js'
import type { Affiliate, Conversion, MailMessage } from '../core/model/types.js'
import { MailSendError, type Mailer, type OutgoingMail } from './mailer.js'
import { renderMail, type MailTemplates } from './templates.js'
import type { ResolvedMailTheme } from './theme.js'
import { unsubscribeToken } from './unsubscribe.js'
import { formatExpiry, mailValues } from './values.js'

/** Waits before attempts 2, 3, ... of a mail the server did not take (about two days in all). */
export const DEFAULT_MAIL_DELAYS = [30, 120, 600, 1800, 7200, 21_600, 43_200, 86_400]

export interface MailAttemptReport {
  projectId: string
  mailId: number
  kind: MailMessage['kind']
  attempt: number
  outcome: 'sent' | 'retrying' | Exclude<MailStatus, 'queued' | 'sending' | 'sent'>
  reply: string | null
  nextAttemptAt: Date | null
}

export interface MailContextOptions {
  storage: MailStore
  mailer: Mailer
  clock: Clock
  from: string
  replyTo: string | undefined
  /** The portal's public URL with its path, no trailing slash. */
  portalUrl: string | null
  secret: string | null
  /** Mints the one-time sign-in link of an approval mail (the portal); null: it links to the portal. */
  signInLinks: SignInLinkMaker | null
  theme: ResolvedMailTheme
  locale: Locale
  templates: MailTemplates
  delays: number[]
  leaseMs: number
  maxAgeMs: number
  jitter: number
  onAttempt: ((report: MailAttemptReport) => void) | undefined
  onError: (error: unknown) => void
}

/** The Message-ID of a mail: the same at every attempt, so a resend after a crash is the same message. */
export function messageIdOf(mail: Pick<MailMessage, 'id' | 'projectId'>, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'affiliate-kit.invalid'
  return `<mail.${mail.id}.${mail.projectId.replace(/[^A-Za-z0-9_-]/g, '')}@${domain}>`
}

type Decision = { send: true; affiliate: Affiliate; conversion: Conversion | null } | { send: false; status: 'skipped' | 'expired'; reason: string }

/** Whether the mail still goes now, with what it needs. */
async function decide(ctx: MailContextOptions, mail: MailMessage, now: Date): Promise<Decision> {
  const affiliate = await ctx.storage.affiliates.get(mail.projectId, mail.affiliateId)
  if (!affiliate) return { send: false, status: 'skipped', reason: 'the affiliate no longer exists' }
  // An erased affiliate has only a placeholder address (docs/privacy.md): nothing goes to it.
  if (isErasedEmail(affiliate.email)) return { send: false, status: 'skipped', reason: 'the affiliate was erased' }
  const topic = MAIL_TOPIC[mail.kind]
  if (OPTIONAL_TOPICS.includes(topic) && affiliate.emailOptOut?.includes(topic)) return { send: false, status: 'skipped', reason: `the affiliate turned off ${topic} emails` }
  if (mail.kind === 'sign_in') {
    const expiresAt = new Date(String((mail.payload.sign_in as { expires_at?: unknown } | undefined)?.expires_at ?? ''))
    if (!(expiresAt.getTime() > now.getTime())) return { send: false, status: 'expired', reason: 'the sign-in link expired before it could be sent' }
  }
  // Only a first attempt can be too old: a mail queued while no dispatcher ran is not news any more.
  const dueAt = mail.nextAttemptAt ?? mail.createdAt
  if (mail.attempts === 1 && now.getTime() - dueAt.getTime() > ctx.maxAgeMs) return { send: false, status: 'expired', reason: 'queued too long ago (maxAgeMs)' }
  let conversion: Conversion | null = null
  if (mail.kind === 'new_commission' || mail.kind === 'commission_ready') {
    const id = Number(String((mail.payload.conversion as { id?: unknown } | undefined)?.id ?? ''))
    conversion = Number.isSafeInteger(id) ? await ctx.storage.conversions.get(mail.projectId, id) : null
    if (mail.kind === 'commission_ready' && (!conversion || conversion.status !== 'active')) {
      return { send: false, status: 'skipped', reason: 'the commission is no longer payable' }
    }
    if (mail.kind === 'new_commission' && conversion) await queueReadyMail(ctx, mail, conversion)
  }
  return { send: true, affiliate, conversion }
}

/**
 * A commission not payable when it was made (its hold, or the payout terms) gets its "ready for
 * payout" mail, due when it becomes payable, as the portal and GET /payouts/due see it (queued once).
 */
async function queueReadyMail(ctx: MailContextOptions, mail: MailMessage, conversion: Conversion): Promise<void> {
  const project = await ctx.storage.projects.get(mail.projectId)
  const dayOf = dayFormatter(project?.settings.timeZone ?? 'UTC')
  const terms = payoutTerms(project?.settings.payouts, dayOf)
  if (terms.isPayable(conversion.holdUntil, conversion.createdAt)) return
  await ctx.storage.mail.insert({
    projectId: mail.projectId,
    kind: 'commission_ready',
    affiliateId: mail.affiliateId,
    recipient: mail.recipient,
    payload: { conversion: { id: String(conversion.id) } },
    dedupeKey: `commission_ready:${conversion.id}`,
    sendAt: terms.payableAt(conversion.holdUntil),
    createdAt: ctx.clock.now(),
  })
}

/**
 * The one-time sign-in link an approval mail carries, minted when the mail is composed (so it is
 * fresh even after retries) by the portal of the mail's project, on its configured public URL only;
 * null without such a portal, or when the affiliate may not sign in any more (blocked since).
 */
async function welcomeSignInLink(ctx: MailContextOptions, mail: MailMessage, affiliate: Affiliate): Promise<{ url: string; expiresAt: Date } | null> {
  const maker = ctx.signInLinks
  if (!maker || maker.projectId !== mail.projectId || !maker.publicUrl) return null
  try {
    return await maker.createSignInLink(affiliate.email)
  } catch (error) {
    if (error instanceof AffiliateError) return null
    throw error
  }
}

/** The mail as it goes out: the affiliate's language, the program's look, the unsubscribe headers. */
export async function composeMail(ctx: MailContextOptions, mail: MailMessage, affiliate: Affiliate, conversion: Conversion | null): Promise<OutgoingMail> {
  const project = await ctx.storage.projects.get(mail.projectId)
  const currency = project?.settings.currency ?? 'USD'
  const requested = (mail.payload.sign_in as { locale?: unknown } | undefined)?.locale ?? (mail.payload as { locale?: unknown }).locale
  const locale = chooseLocale(affiliate.locale, null, isLocale(requested) ? requested : ctx.locale)
  const topic = MAIL_TOPIC[mail.kind]
  const unsubscribe = ctx.portalUrl && ctx.secret && OPTIONAL_TOPICS.includes(topic)
    ? `${ctx.portalUrl}/unsubscribe?token=${unsubscribeToken(ctx.secret, mail.projectId, affiliate.id, topic)}`
    : null
  const timeZone = project?.settings.timeZone ?? 'UTC'
  const welcome = mail.kind === 'approved' ? await welcomeSignInLink(ctx, mail, affiliate) : null
  const signInLink = mail.kind === 'sign_in' ? String((mail.payload.sign_in as { link?: unknown }).link ?? '') : (welcome?.url ?? null)
  const terms = payoutTerms(project?.settings.payouts, dayFormatter(timeZone))
  const values = mailValues({ mail, locale, currency, timeZone, conversion, terms })
  if (welcome) values.expires = formatExpiry(welcome.expiresAt, locale, timeZone)
  const rendered = renderMail(
    {
      kind: mail.kind,
      locale,
      t: translator(locale),
      program: ctx.theme.title,
      theme: ctx.theme,
      affiliate: { id: affiliate.id, email: affiliate.email, name: affiliate.name },
      values,
      links: {
        action: signInLink || (ctx.portalUrl ? `${ctx.portalUrl}/` : null),
        preferences: ctx.portalUrl ? `${ctx.portalUrl}/settings` : null,
        unsubscribe,
      },
      payload: mail.payload,
    },
    ctx.templates,
  )
  const headers: Record<string, string> = { 'Content-Language': locale, 'X-Affiliate-Kit-Mail': mail.kind }
  if (unsubscribe) {
    headers['List-Unsubscribe'] = `<${unsubscribe}>`
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click'
  }
  return {
    from: ctx.from,
    to: affiliate.email,
    ...(ctx.replyTo ? { replyTo: ctx.replyTo } : {}),
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: messageIdOf(mail, ctx.from),
    headers,
  }
}

/** When attempt + 1 is due after a temporary failure, or null when the schedule is spent. */
export function nextMailAttempt(delays: number[], attempt: number, now: Date, jitter: number, random = Math.random): Date | null {
  const delay = delays[attempt - 1]
  if (delay === undefined) return null
  return new Date(now.getTime() + Math.round(delay * 1000 * (1 + (random() * 2 - 1) * jitter)))
}

/**
 * Sends one claimed mail (its attempt already counted by the claim: the record before) and records
 * what came of it (the record after). A crash between the two leaves the mail `sending` until its
 * lease ends; it is then claimed again and sent with the same Message-ID.
 */
export async function deliverMail(ctx: MailContextOptions, mail: MailMessage): Promise<void> {
  const started = ctx.clock.now()
  let status: Exclude<MailStatus, 'sending'>
  let reply: string | null
  let nextAttemptAt: Date | null = null
  try {
    const decision = await decide(ctx, mail, started)
    if (!decision.send) {
      status = decision.status
      reply = decision.reason
    } else {
      const outgoing = await composeMail(ctx, mail, decision.affiliate, decision.conversion)
      reply = (await ctx.mailer.send(outgoing)).reply
      status = 'sent'
    }
  } catch (error) {
    const failure = error instanceof MailSendError ? error : null
    reply = failure ? failure.message : `error: ${error instanceof Error ? error.message : String(error)}`
    if (failure?.permanent) status = 'bounced'
    else {
      nextAttemptAt = nextMailAttempt(ctx.delays, mail.attempts, ctx.clock.now(), ctx.jitter)
      status = nextAttemptAt ? 'queued' : 'failed'
    }
    if (!failure) ctx.onError(error)
  }
  const outcome = status === 'queued' ? 'retrying' : status
  await ctx.storage.mail.record({
    id: mail.id,
    status,
    nextAttemptAt,
    attempt: { attemptedAt: started, outcome: status === 'queued' ? 'failed' : status, reply: reply?.slice(0, 1000) ?? null, durationMs: ctx.clock.now().getTime() - started.getTime() },
  })
  if (ctx.onAttempt) {
    try {
      ctx.onAttempt({ projectId: mail.projectId, mailId: mail.id, kind: mail.kind, attempt: mail.attempts, outcome, reply, nextAttemptAt })
    } catch (hookError) {
      ctx.onError(hookError)
    }
  }
}
