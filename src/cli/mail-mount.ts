// The standalone server's mail (config `email`): a mail dispatcher beside the webhook dispatcher,
// over the same storage, sending through the configured SMTP server with the portal's look,
// language and public URL (docs/email.md), and last month's summaries queued once a month.
import type { MailStore } from '../core/ports/mail-store.js'
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import type { Logger } from '../ops/logger.js'
import { createMailDispatcher, type MailDispatcher } from '../email/dispatcher.js'
import { smtpMailer } from '../email/mailer.js'
import { secretFromSmtpUrl } from '../email/unsubscribe.js'
import type { ServerConfig } from './config.js'
import type { AffiliateProgram } from '../core/program.js'

/** How often the server looks for a month whose summaries are not queued yet (each is queued once). */
const SUMMARY_CHECK_MS = 3_600_000

/** Queues last month's summaries now and every hour (a no-op once queued); returns the stop. */
export function monthlySummaries(program: AffiliateProgram, logger: Logger): () => void {
  const run = () =>
    program.mail.queueMonthlySummaries().then(
      (queued) => queued > 0 && logger.info(`queued ${queued} monthly summary mails`, { queued }),
      (error: unknown) => logger.error('monthly summaries failed', { error: String(error) }),
    )
  void run()
  const timer = setInterval(run, SUMMARY_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** The secret of the unsubscribe links: the portal checks what the dispatcher signs. */
export function mailSecret(email: NonNullable<ServerConfig['email']>): string {
  return email.secret ?? secretFromSmtpUrl(email.smtp)
}

/** The dispatcher; `signInLinks` (the server's portal) puts a one-time sign-in link in approval mails. */
export function configuredMail(storage: MailStore, config: ServerConfig, logger: Logger, signInLinks: SignInLinkMaker | null): { dispatcher: MailDispatcher; server: string } {
  const email = config.email!
  const portal = config.portal?.enabled ? config.portal : undefined
  const secret = mailSecret(email)
  const smtp = new URL(email.smtp)
  if (!email.secret && !smtp.password) logger.warn('email.secret is not set and the SMTP URL has no password: set email.secret so unsubscribe links cannot be forged')
  if (!portal?.publicUrl) logger.warn('portal.publicUrl is not set: mails carry no links to the portal and no unsubscribe link')
  const dispatcher = createMailDispatcher({
    storage,
    mailer: smtpMailer(email.smtp),
    from: email.from,
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    ...(portal?.publicUrl ? { portalUrl: `${portal.publicUrl.replace(/\/+$/, '')}${portal.path ?? '/portal'}` } : {}),
    secret,
    ...(signInLinks ? { signInLinks } : {}),
    ...(portal?.theme ? { theme: portal.theme } : {}),
    ...(portal?.locale ? { locale: portal.locale } : {}),
    logger,
  })
  // The server's name and port, never its user or password.
  return { dispatcher, server: `${smtp.protocol}//${smtp.hostname}${smtp.port ? `:${smtp.port}` : ''}` }
}
