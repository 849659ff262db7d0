// The standalone server's logger: level and format from --log-level / --log-format, else the
// LOG_LEVEL / LOG_FORMAT environment variables, else the config file's logLevel / logFormat;
// info and text by default.
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

export function serverLogger(choice: LoggingChoice, write?: (line: string) => void): Logger {
  const env = choice.env ?? process.env
  const level = pick(LOG_LEVELS, 'the log level', ['--log-level', choice.level], ['LOG_LEVEL', env.LOG_LEVEL], ['config logLevel', choice.config?.logLevel])
  const format = pick(FORMATS, 'the log format', ['--log-format', choice.format], ['LOG_FORMAT', env.LOG_FORMAT], ['config logFormat', choice.config?.logFormat])
  return createLogger({ level: level ?? 'info', format: format ?? 'text', ...(write ? { write } : {}) })
}
