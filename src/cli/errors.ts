// How the command reports a failure: one line on stderr saying what to do, never a stack and never
// a password (database URLs are redacted wherever they appear). Known failures become CliError
// where they happen; this file turns anything else into the best line it can.
import { AffiliateError } from '../core/errors.js'
import { DataDirLockedError } from '../adapters/data-dir-lock.js'

/** A failure the user can fix; the message is the whole line. Exit code 2: argv could not be read. */
export class CliError extends Error {
  override name = 'CliError'
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
  }
}

export const usageError = (message: string) => new CliError(message, 2)

/** `scheme://user:password@host` with the password (up to the last @) replaced by ***. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s]*@/gi

/** The text with every URL password, and each of the given secrets (raw or decoded), masked. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let masked = text.replace(URL_PASSWORD, '$1***@')
  for (const secret of secrets) {
    for (const form of new Set([secret, safeDecode(secret)])) if (form.length >= 3) masked = masked.split(form).join('***')
  }
  return masked
}

/** The passwords inside URLs among the given texts (argv, DATABASE_URL). */
export function urlPasswords(texts: ReadonlyArray<string | undefined>): string[] {
  return texts.flatMap((text) => [...(text ?? '').matchAll(new RegExp(URL_PASSWORD.source, 'gi'))].map((match) => passwordOf(match[0])))
}

function passwordOf(userinfoPrefix: string): string {
  const afterScheme = userinfoPrefix.slice(userinfoPrefix.indexOf('://') + 3, -1)
  return afterScheme.slice(afterScheme.indexOf(':') + 1)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

interface SystemError {
  code?: string
  syscall?: string
  address?: string
  port?: number
  hostname?: string
}

/** Node's errors from listen(): the address is taken, privileged or not ours. */
function listenError(error: SystemError): string | null {
  if (error.syscall !== 'listen' && error.syscall !== 'getaddrinfo') return null
  const where = `${error.address ?? error.hostname}${error.port === undefined ? '' : `:${error.port}`}`
  if (error.code === 'EADDRINUSE') return `${where} is already in use; stop the program using it, or choose another port with --port (or PORT)`
  if (error.code === 'EACCES') return `no permission to listen on ${where}; choose a port above 1023 with --port (or PORT)`
  if (error.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: not an address of this machine; fix --host (or HOST)`
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `cannot listen on ${where}: unknown host name; fix --host (or HOST)`
  return null
}

/** The one line (without the "affiliate-kit: " prefix) for any error. */
export function describeError(error: unknown, debug = false): string {
  if (error instanceof CliError || error instanceof AffiliateError) return error.message
  if (error instanceof DataDirLockedError) return `${error.message}; stop that process first, or choose another --database`
  const listen = listenError((error ?? {}) as SystemError)
  if (listen) return listen
  const message = error instanceof Error ? error.message : String(error)
  if (debug) return `unexpected error: ${error instanceof Error ? (error.stack ?? message) : message}`
  return `unexpected error: ${message.split('\n')[0]} (set AFFILIATE_KIT_DEBUG=1 for details)`
}
