// The `exchangeRates` table of the server config (docs/money.md "Exchange rates on the standalone server"): fixed
// rates by currency pair, `{ "EUR->USD": "1.0825" }`, checked at start and handed to the program
// as its exchangeRates function. A pair is used only as written: the inverse is never derived.
import * as v from 'valibot'
import type { ExchangeRates } from '../core/rules/context.js'

const MAX_DECIMALS = 10
const PAIR = /^([A-Z]{3})->([A-Z]{3})$/
const RATE_TEXT = /^(\d+)(?:\.(\d+))?$/

const pair = v.pipe(
  v.string(),
  v.regex(PAIR, 'must be a currency pair such as "EUR->USD" (three-letter codes in capitals)'),
  v.check((text) => text.slice(0, 3) !== text.slice(5), 'must name two different currencies'),
)

/** A rate is exact decimal text: a JSON number would already be a binary approximation. */
const rate = v.pipe(
  v.string('must be a decimal string such as "1.0825" (in quotes, so it stays exact)'),
  v.regex(RATE_TEXT, 'must be a decimal number such as "1.0825"'),
  v.check((text) => (RATE_TEXT.exec(text)![2] ?? '').length <= MAX_DECIMALS, `must have at most ${MAX_DECIMALS} decimal places`),
  v.check((text) => /[1-9]/.test(text), 'must be greater than 0'),
  v.check((text) => RATE_TEXT.exec(text)![1]!.replace(/^0+/, '').length <= 12, 'must be below 1000000000000'),
)

const TABLE = 'must be an object such as { "EUR->USD": "1.0825" }'
/** How many units of the second currency one unit of the first buys, by pair. */
export const exchangeRateTable = v.pipe(
  v.custom<object>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), TABLE),
  v.record(pair, rate),
)
export type ExchangeRateTable = v.InferOutput<typeof exchangeRateTable>

/** The program's exchangeRates for a table: the rate of the pair as written, else none. */
export function tableExchangeRates(table: ExchangeRateTable): ExchangeRates {
  const rates = new Map(Object.entries(table))
  return (from, to) => rates.get(`${from}->${to}`) ?? null
}
