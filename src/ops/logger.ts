// Structured logging: a Logger with four levels that writes one line per record, either as JSON
// (`{"time","level","msg",...fields}`) or as text (`time LEVEL msg key=value ...`). The library
// logs nothing unless it is given a logger; the standalone server makes one from its flags.
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
  /** Receives each line, without its newline. @default a write to process.stdout */
  write?: (line: string) => void
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }
const noop = () => {}

function textValue(value: string | number | boolean | null): string {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)
}

function jsonLine(time: string, level: LogLevel, message: string, fields: LogFields | undefined): string {
  return JSON.stringify({ time, level, msg: message, ...fields })
}

function textLine(time: string, level: LogLevel, message: string, fields: LogFields | undefined): string {
  let line = `${time} ${level.toUpperCase().padEnd(5)} ${message}`
  if (fields) for (const key in fields) if (fields[key] !== undefined) line += ` ${key}=${textValue(fields[key]!)}`
  return line
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = RANK[options.level ?? 'info']
  const format = options.format === 'json' ? jsonLine : textLine
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`))
  const at = (level: LogLevel) =>
    RANK[level] < threshold ? noop : (message: string, fields?: LogFields) => write(format(new Date().toISOString(), level, message, fields))
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/** An error as one log field: its stack when it has one (never request bodies or keys). */
export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)
}
