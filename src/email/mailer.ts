// How a mail leaves: the Mailer port (any object with `send`), and the SMTP one on nodemailer.
// A send either resolves with the server's reply or throws a MailSendError saying whether the
// server refused the message for good (a 5xx reply: a bounce) or only for now (4xx, no answer).
import type { Transporter } from 'nodemailer'

export interface OutgoingMail {
  from: string
  to: string
  replyTo?: string
  subject: string
  text: string
  html: string
  /** `<...@...>`: the same for every attempt of one mail (docs/email.md "Never twice"). */
  messageId: string
  headers: Record<string, string>
}

export interface Mailer {
  /** Resolves with the server's reply (such as `250 2.0.0 OK queued`). */
  send(mail: OutgoingMail): Promise<{ reply: string }>
  /** Closes open connections. */
  close?(): void | Promise<void>
}

/** A send that failed: `permanent` for a 5xx reply (the server will never take it), else try later. */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly reply: string | null,
  ) {
    super(message)
    this.name = 'MailSendError'
  }
}

export interface SmtpMailerOptions {
  /** Waits for the TCP connection and the greeting. @default 10000 */
  connectionTimeoutMs?: number
  /** Waits for each reply once connected. @default 30000 */
  socketTimeoutMs?: number
}

/** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://...:465` (TLS from the start). */
export function smtpMailer(url: string, options: SmtpMailerOptions = {}): Mailer {
  const parsed = URL.canParse(url) ? new URL(url) : null
  if (!parsed || !/^smtps?:$/.test(parsed.protocol)) throw new TypeError('the SMTP URL must look like smtp://user:password@host:587 or smtps://host:465')
  // nodemailer (some forty modules) is loaded with the first mail, not by every program that imports this package.
  let transport: Promise<Transporter> | null = null
  const opened = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(url, {
        connectionTimeout: options.connectionTimeoutMs ?? 10_000,
        greetingTimeout: options.connectionTimeoutMs ?? 10_000,
        socketTimeout: options.socketTimeoutMs ?? 30_000,
      } as never),
    ))
  return {
    async send(mail) {
      try {
        const info = await (await opened()).sendMail({
          from: mail.from,
          to: mail.to,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        })
        return { reply: String(info.response ?? '') }
      } catch (error) {
        const failure = error as { responseCode?: number; response?: string; message?: string; code?: string }
        const reply = failure.response ?? null
        const permanent = typeof failure.responseCode === 'number' && failure.responseCode >= 500
        throw new MailSendError(reply ?? `${failure.code ?? 'error'}: ${failure.message ?? String(error)}`, permanent, reply)
      }
    },
    close: async () => (await transport)?.close(),
  }
}
