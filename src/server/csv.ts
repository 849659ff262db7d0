// CSV cells every surface writes (the console's batch files and exports, the REST tax summary).

/** A CSV field, quoted when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

/**
 * A text cell a spreadsheet must not run as a formula: one starting with = + - @, tab or carriage
 * return gets a leading single quote (OWASP "CSV Injection"). The check reads the NFKC form, since
 * spreadsheets take full-width and small-form signs (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫) for the ASCII ones.
 * Amounts are not passed through it.
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value.normalize('NFKC')) ? `'${value}` : value
}
