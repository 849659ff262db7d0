// A real SMTP server for the email tests (smtp-server), keeping every message it accepted, parsed
// with mailparser. It can stop and start again on the same port (an outage).
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Received {
  to: string[]
  raw: string
  mail: ParsedMail
}

export interface SmtpCatcher {
  port: number
  url: string
  received: Received[]
  /** Stops accepting connections (the port stays ours to listen on again). */
  stop(): Promise<void>
  start(): Promise<void>
}

export async function startSmtp(options: { port?: number; reject?: (to: string) => string | null; dataDelayMs?: number } = {}): Promise<SmtpCatcher> {
  const received: Received[] = []
  let server: SMTPServer | null = null
  let port = options.port ?? 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        allowInsecureAuth: true,
        // Any user and password: the tests check what arrives, not who sent it.
        onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
        disabledCommands: ['STARTTLS'],
        logger: false,
        onRcptTo(address, _session, callback) {
          const refusal = options.reject?.(address.address)
          if (refusal) {
            const error = new Error(refusal) as Error & { responseCode: number }
            error.responseCode = 550
            return callback(error)
          }
          callback()
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8')
            void simpleParser(raw).then((mail) => {
              received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, mail })
              setTimeout(callback, options.dataDelayMs ?? 0)
            }, callback)
          })
        },
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        port = (server!.server.address() as { port: number }).port
        // Once listening, an error is a client's connection failing (a dispatcher killed mid-send
        // resets its sockets, several at once): the tests check what arrived, so it is not thrown.
        server!.removeListener('error', reject)
        server!.on('error', () => {})
        resolve()
      })
    })
  await listen()
  return {
    get port() {
      return port
    },
    get url() {
      return `smtp://127.0.0.1:${port}`
    },
    received,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: listen,
  }
}
