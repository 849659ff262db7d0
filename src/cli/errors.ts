// How the command reports a failure: one line on stderr saying what to do, never a stack and never
// a password (database URLs are redacted wherever they appear). Known failures become CliError
// where they happen; this file turns anything else into the best line it can.
import { AffiliateError } from '../core/model/errors.js'
import { DataDirLockedError } from '../adapters/pglite/data-dir-lock.js'
import { lockedMessage } from './locked.js'
import { SchemaTooNewError } from '../adapters/sql/migrations.js'

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

/** `scheme://user:password@` in a line of text (a password without spaces or @). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@]*@/gi
/** The same in one URL value, up to its last @: a malformed password may hold @ and spaces. */
const WHOLE_URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)(.*)@/i

/** One URL (or any one value) with its password masked. */
export const redactUrl = (url: string) => url.replace(WHOLE_URL_PASSWORD, '$1***@')

/** The line with every URL password, and each of the given secrets (raw or decoded), masked. */
export function redact(line: string, secrets: readonly string[] = []): string {
  let masked = line.replace(URL_PASSWORD, '$1***@')
  for (const secret of secrets) {
    for (const form of new Set([secret, safeDecode(secret)])) if (form.length >= 3) masked = masked.split(form).join('***')
  }
  return masked
}

/** The passwords of the URLs among the given values (argv, DATABASE_URL). */
export function urlPasswords(values: ReadonlyArray<string | undefined>): string[] {
  return values.flatMap((value) => {
    const password = value?.match(WHOLE_URL_PASSWORD)?.[2]
    return password ? [password] : []
  })
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
  if (error instanceof CliError || error instanceof AffiliateError || error instanceof SchemaTooNewError) return error.message
  if (error instanceof DataDirLockedError) return lockedMessage(error)
  const listen = listenError((error ?? {}) as SystemError)
  if (listen) return listen
  const message = error instanceof Error ? error.message : String(error)
  if (debug) return `unexpected error: ${error instanceof Error ? (error.stack ?? message) : message}`
  return `unexpected error: ${message.split('\n')[0]} (set AFFILIATE_KIT_DEBUG=1 for details)`
}
