// What a command of the affiliate-kit CLI is, and how its arguments are read: strict options
// per command, and parse failures turned into one line pointing at the command's --help.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { usageError } from './errors.js'

export type OptionSpec = NonNullable<ParseArgsConfig['options']>
export type OptionValues = Record<string, string | boolean | undefined>

export interface Command {
  /** The words that select it: `serve`, `keys create`. */
  name: string
  /** The usage line(s) shown in the overall help and above its own help. */
  usage: string
  /** What --help adds below the usage: the options and environment variables. */
  help: string
  options: OptionSpec
  /** Names of positional arguments, in order (all required). */
  positionals?: string[]
  run(values: OptionValues, positionals: string[], log: (line: string) => void): Promise<number>
}

const HELP: OptionSpec = { help: { type: 'boolean', short: 'h' } }

/** Reads argv for a command; throws a usage error naming the bad option or argument. */
export function parseCommand(command: Command, argv: string[]): { values: OptionValues; positionals: string[] } {
  const seeHelp = `run "affiliate-kit ${command.name} --help"`
  let parsed: { values: OptionValues; positionals: string[] }
  try {
    // No option is declared `multiple`, so every value is one string or boolean.
    parsed = parseArgs({ args: argv, options: { ...command.options, ...HELP }, allowPositionals: true, strict: true }) as typeof parsed
  } catch (error) {
    throw usageError(`${parseProblem(error as Error & { code?: string })}; ${seeHelp}`)
  }
  if (parsed.values.help) return parsed
  const wanted = command.positionals ?? []
  if (parsed.positionals.length > wanted.length) throw usageError(`unexpected argument "${parsed.positionals[wanted.length]}"; ${seeHelp}`)
  if (parsed.positionals.length < wanted.length) throw usageError(`missing <${wanted[parsed.positionals.length]}>; ${seeHelp}`)
  return parsed
}

function parseProblem(error: Error & { code?: string }): string {
  const option = error.message.match(/'(-[^' ]+)/)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /argument missing|ambiguous/.test(error.message)) return `option ${option} needs a value`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `option ${option} takes no value`
  return error.message.split('. ')[0]!
}

/** A whole number of at least 1 written in plain digits (`1e3`, `0x10`, `-1`, ` 2` are not), else null. */
export function positiveInteger(text: string): number | null {
  const value = Number(text)
  return /^\d+$/.test(text) && Number.isSafeInteger(value) && value >= 1 ? value : null
}

/** The --help text of a command. */
export const commandHelp = (command: Command) => `usage: ${command.usage}\n\n${command.help}`
