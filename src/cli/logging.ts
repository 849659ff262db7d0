// The standalone server's logger: level and format from --log-level / --log-format, else the
// LOG_LEVEL / LOG_FORMAT environment variables, else the config file's logLevel / logFormat;
// info and text by default. AFFILIATE_KIT_LOG_SQL=1 adds a debug record per SQL statement.
import type { SqlLogEntry } from '../adapters/sql/sql-log.js'
import { createLogger, LOG_LEVELS, type Logger, type LogFormat, type LogLevel } from '../ops/logger.js'
import { ConfigError } from './config.js'

const FORMATS: readonly LogFormat[] = ['json', 'text']

function pick<T extends string>(allowed: readonly T[], what: string, ...candidates: Array<[string, string | undefined]>): T | undefined {
  for (const [source, value] of candidates) {
    if (value === undefined || value === '') continue
    if ((allowed as readonly string[]).includes(value)) return value as T
    throw new ConfigError(`${source}: ${what} must be ${allowed.join(', ')}; got "${value}"`)
  }
  return undefined
}

export interface LoggingChoice {
  /** From the command line. */
  level?: string | undefined
  format?: string | undefined
  /** From the config file. */
  config?: { logLevel?: LogLevel | undefined; logFormat?: LogFormat | undefined }
  env?: NodeJS.ProcessEnv
}

/** The level records are kept from: the flag, else LOG_LEVEL, else the config file, else info. */
export function serverLogLevel(choice: LoggingChoice): LogLevel {
  const env = choice.env ?? process.env
  return pick(LOG_LEVELS, 'the log level', ['--log-level', choice.level], ['LOG_LEVEL', env.LOG_LEVEL], ['config logLevel', choice.config?.logLevel]) ?? 'info'
}

export function serverLogger(choice: LoggingChoice, write?: (line: string) => void): Logger {
  const env = choice.env ?? process.env
  const format = pick(FORMATS, 'the log format', ['--log-format', choice.format], ['LOG_FORMAT', env.LOG_FORMAT], ['config logFormat', choice.config?.logFormat])
  return createLogger({ level: serverLogLevel(choice), format: format ?? 'text', ...(write ? { write } : {}) })
}

/** AFFILIATE_KIT_LOG_SQL: on unless unset, empty, 0 or false. */
export function sqlLogRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.AFFILIATE_KIT_LOG_SQL?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== '0' && value !== 'false'
}

/** The storage's logSql for the server: a `sql` record (debug) with the statement and its parameter count, never values. */
export function sqlLogRecords(logger: Logger): (entry: SqlLogEntry) => void {
  return ({ text, params }) => logger.debug('sql', { statement: text, params })
}
