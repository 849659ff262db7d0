// Structured logging: a Logger with four levels that writes one line per record, either as JSON
// (`{"time","level","msg",...fields}`) or as text (`time LEVEL msg key=value ...`). The library
// logs nothing unless it is given a logger; the standalone server makes one from its flags.
import { writeSync } from 'node:fs'
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export type LogFormat = 'json' | 'text'

/** Flat fields of a record; undefined fields are left out. */
export type LogFields = Record<string, string | number | boolean | null | undefined>

export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

export interface LoggerOptions {
  /** Records below this level are dropped. @default 'info' */
  level?: LogLevel
  /** @default 'text' */
  format?: LogFormat
  /** Receives each line, without its newline. @default stdout, lines close together gathered into one write */
  write?: (line: string) => void
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }
const noop = () => {}

// toISOString costs about a microsecond; lines written within the same millisecond share one.
let lastMs = -1
let lastTime = ''
function timestamp(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastTime = new Date(ms).toISOString()
  }
  return lastTime
}

function textValue(value: string | number | boolean | null): string {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)
}

function jsonLine(time: string, level: LogLevel, message: string, fields: LogFields | undefined): string {
  let line = `{"time":"${time}","level":"${level}","msg":${JSON.stringify(message)}`
  if (fields) for (const key in fields) if (fields[key] !== undefined) line += `,${JSON.stringify(key)}:${JSON.stringify(fields[key])}`
  return `${line}}`
}

/** How long lines may wait before they are written, and how much text may wait. */
const FLUSH_MS = 20
const FLUSH_CHARS = 16_384
/** Lines written at once within FLUSH_MS before the next ones wait: a start's few lines never wait. */
const PROMPT_LINES = 8

/** One stdout writer for every logger that does not bring its own (one exit hook). */
let sharedStdout: ((line: string) => void) | undefined

/**
 * Lines to stdout. The first PROMPT_LINES lines of a FLUSH_MS window are written at once (start-up
 * lines, a lone request); later lines of a busy window are gathered into one write at its end
 * (or at FLUSH_CHARS): under load that is one system call for many requests instead of one each.
 * What is pending at exit is written then.
 */
function stdoutWriter(): (line: string) => void {
  let pending = ''
  let timer: NodeJS.Timeout | null = null
  let windowStart = -Infinity
  let promptInWindow = 0
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    const text = pending
    pending = ''
    if (text !== '') process.stdout.write(text)
  }
  process.once('exit', () => {
    if (pending !== '') writeSync(1, pending)
  })
  return (line) => {
    const now = performance.now()
    if (now - windowStart >= FLUSH_MS) {
      windowStart = now
      promptInWindow = 0
    }
    pending += `${line}\n`
    if (!timer && promptInWindow < PROMPT_LINES) {
      promptInWindow += 1
      flush()
    } else if (pending.length >= FLUSH_CHARS) flush()
    else if (!timer) timer = setTimeout(flush, FLUSH_MS).unref()
  }
}

function textLine(time: string, level: LogLevel, message: string, fields: LogFields | undefined): string {
  let line = `${time} ${level.toUpperCase().padEnd(5)} ${message}`
  if (fields) for (const key in fields) if (fields[key] !== undefined) line += ` ${key}=${textValue(fields[key]!)}`
  return line
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = RANK[options.level ?? 'info']
  const format = options.format === 'json' ? jsonLine : textLine
  const write = options.write ?? (sharedStdout ??= stdoutWriter())
  const at = (level: LogLevel) =>
    RANK[level] < threshold ? noop : (message: string, fields?: LogFields) => write(format(timestamp(), level, message, fields))
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/** An error as one log field: its stack when it has one (never request bodies or keys). */
export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)
}

/**
 * An unexpected error as log fields: its class, message, driver code (PostgreSQL's SQLSTATE) and
 * stack, so a 500's log line says what went wrong (never request bodies or keys).
 */
export function errorFields(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error: String(error) }
  const code = (error as { code?: unknown }).code
  return { errorClass: error.constructor.name, message: error.message, ...(typeof code === 'string' ? { code } : {}), stack: error.stack ?? '' }
}
