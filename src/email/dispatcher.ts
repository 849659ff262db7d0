// createMailDispatcher: a peer of the program over the same storage, beside the webhook
// dispatcher. Claims due mails (leases: several processes can share a PostgreSQL), sends each
// once in the affiliate's language, records every attempt and retries what the SMTP server did not
// take (docs/email.md). The factory only wires named functions: one attempt (delivery.ts), a pass,
// the background loop.
import { systemClock, type Clock } from '../core/model/clock.js'
import { isLocale, LOCALES, type Locale } from '../core/model/i18n/locales.js'
import type { MailStore } from '../core/ports/mail-store.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import type { Logger } from '../ops/logger.js'
import { logThrottle } from '../ops/log-throttle.js'
import { StorageFullError, StorageUnavailableError } from '../core/model/errors.js'
import { DEFAULT_MAIL_DELAYS, deliverMail, type MailAttemptReport, type MailContextOptions } from './delivery.js'
import type { Mailer } from './mailer.js'
import type { MailTemplates } from './templates.js'
import { resolveMailTheme, type MailTheme } from './theme.js'

export interface MailDispatcherOptions {
  /** The storage the program writes to (any adapter); the dispatcher uses its mail queue. */
  storage: MailStore
  /** How mails leave: smtpMailer('smtp://user:pass@host:587') or any { send }. */
  mailer: Mailer
  /** `Acme Partners <partners@acme.com>` */
  from: string
  replyTo?: string
  /**
   * The portal's public URL with its path (https://partners.example.com/portal): the mails' buttons,
   * the settings link and the unsubscribe links point there. @default none (mails carry no links but sign-in's)
   */
  portalUrl?: string
  /** Signs the one-click unsubscribe links; give the portal the same. @default none (no unsubscribe links) */
  secret?: string
  /**
   * The portal (createPortal) of the program: an approval mail then carries a one-time sign-in
   * link it mints on its `publicUrl` (never a request's Host), valid as long as the portal's
   * emailed links. @default none (the approval mail links to the portal's overview)
   */
  signInLinks?: SignInLinkMaker
  /** The program's name, logo and colours: the portal's theme. */
  theme?: MailTheme
  /** The language of affiliates who chose none (the portal's `locale`). @default 'en' */
  locale?: string
  /** Per kind, a function returning { subject, text, html } in place of the default. */
  templates?: MailTemplates
  /** Waits before attempts 2, 3... after a temporary failure. @default [30, 120, 600, 1800, 7200, 21600, 43200, 86400] */
  retryDelaysSeconds?: number[]
  /** How long a claimed mail stays reserved; a process that dies mid-send leaves it to be sent again after. @default 120000 */
  leaseMs?: number
  /** A mail first claimed later than this after it was due is not sent (status expired). @default 3 days */
  maxAgeMs?: number
  /** Random jitter of each retry delay, as a fraction. @default 0.2 */
  jitter?: number
  /** Mails sent at once. @default 4 */
  concurrency?: number
  /** @default the system clock */
  clock?: Clock
  /** Receives failed sends and dispatcher errors. @default none */
  logger?: Logger
  /** Called after every recorded attempt. */
  onAttempt?: (report: MailAttemptReport) => void
  /** Storage errors of the background loop (it keeps running). @default the logger, else console.error */
  onError?: (error: unknown) => void
}

export interface MailDispatcher {
  /** Keeps sending in the background until stop(). */
  start(options?: { pollIntervalMs?: number }): void
  /** Stops claiming and waits for the sends in flight. */
  stop(): Promise<void>
  /** One pass: sends every due mail once; resolves with how many were attempted. */
  dispatch(): Promise<number>
}

interface DispatcherContext extends MailContextOptions {
  concurrency: number
  /** The storage's mail switch, turned on by the first pass (mails are written from then on). */
  enabled: Promise<void> | null
}

/** Errors as log lines; the database down or its disk full (each poll fails alike) once a minute with a count. */
function loggedError(logger: Logger): (error: unknown) => void {
  const storageErrors = logThrottle(60_000)
  return (error) => {
    if (!(error instanceof StorageUnavailableError || error instanceof StorageFullError)) return logger.error('mail dispatcher error', { error: String(error) })
    const logged = storageErrors.event(error.name)
    if (logged) logger.error('mail dispatcher cannot use the database; it tries again each poll', { error: String(error), failures: logged.count })
  }
}

export function mailDispatcherContext(options: MailDispatcherOptions): DispatcherContext {
  const { logger } = options
  const locale = options.locale ?? 'en'
  if (!isLocale(locale)) throw new TypeError(`locale must be one of ${LOCALES.join(', ')}`)
  const onError = options.onError ?? (logger ? loggedError(logger) : (error: unknown) => console.error('affiliate-kit mail:', error))
  const onAttempt = (report: MailAttemptReport) => {
    // Every attempt is in the log at the default level: a sent mail as info, one not sent as a warning.
    if (logger && report.outcome === 'sent') logger.info('mail sent', { mail_id: report.mailId, kind: report.kind, attempt: report.attempt })
    else if (logger) logger.warn('mail not sent', { mail_id: report.mailId, kind: report.kind, attempt: report.attempt, outcome: report.outcome, reply: report.reply ?? '' })
    options.onAttempt?.(report)
  }
  return {
    storage: options.storage,
    mailer: options.mailer,
    clock: options.clock ?? systemClock,
    from: options.from,
    replyTo: options.replyTo,
    portalUrl: options.portalUrl?.replace(/\/+$/, '') ?? null,
    secret: options.secret ?? null,
    signInLinks: options.signInLinks ?? null,
    theme: resolveMailTheme(options.theme),
    locale: locale as Locale,
    templates: options.templates ?? {},
    delays: options.retryDelaysSeconds ?? DEFAULT_MAIL_DELAYS,
    leaseMs: options.leaseMs ?? 120_000,
    maxAgeMs: options.maxAgeMs ?? 3 * 86_400_000,
    jitter: options.jitter ?? 0.2,
    onAttempt,
    onError,
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 4)),
    enabled: null,
  }
}

/** One pass: claims and sends until nothing is due (a mail due again at once ends the pass instead of looping). */
export async function dispatchMailOnce(ctx: DispatcherContext, running: () => boolean = () => true): Promise<number> {
  ctx.enabled ??= ctx.storage.mail.enable(ctx.clock.now()).catch((error: unknown) => {
    ctx.enabled = null
    throw error
  })
  await ctx.enabled
  const seen = new Set<number>()
  let sent = 0
  while (running()) {
    const claimed = await ctx.storage.mail.claim({ now: ctx.clock.now(), limit: ctx.concurrency, leaseMs: ctx.leaseMs })
    if (claimed.length === 0) break
    const fresh = claimed.filter((mail) => !seen.has(mail.id)).length
    for (const mail of claimed) seen.add(mail.id)
    await Promise.all(claimed.map((mail) => deliverMail(ctx, mail).catch(ctx.onError)))
    sent += claimed.length
    if (fresh === 0) break
  }
  return sent
}

export function createMailDispatcher(options: MailDispatcherOptions): MailDispatcher {
  const ctx = mailDispatcherContext(options)
  let loop: Promise<void> | null = null
  let stopping = false
  let wake: (() => void) | null = null
  return {
    dispatch: () => dispatchMailOnce(ctx),
    start(startOptions = {}) {
      if (loop) return
      const pollIntervalMs = Math.max(10, startOptions.pollIntervalMs ?? 1000)
      stopping = false
      loop = (async () => {
        while (!stopping) {
          try {
            await dispatchMailOnce(ctx, () => !stopping)
          } catch (error) {
            ctx.onError(error)
          }
          if (stopping) break
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollIntervalMs)
            wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
          wake = null
        }
      })()
    },
    async stop() {
      stopping = true
      wake?.()
      if (loop) await loop
      loop = null
      await ctx.mailer.close?.()
    },
  }
}
