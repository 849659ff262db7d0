// One CSV export file as records of cells: UTF-8 only (the encoding the tools export in), so a
// file saved in another encoding stops the import naming the first row and column it garbles,
// instead of storing "M�ller". A byte-order mark, CRLF and quoted cells are read as usual.
import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import { ImportSourceError } from '../source.js'

const options = { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true } as const

/** The file's records, the header first; refused when it is not UTF-8 or not CSV. */
export function readCsv(file: string): string[][] {
  const bytes = readFileSync(file)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ImportSourceError(`${file}: ${garbled(bytes)} is not UTF-8 text: save the file as UTF-8 (CSV UTF-8) and run the import again; nothing was imported`)
  }
  try {
    return parse(text, options) as string[][]
  } catch (error) {
    throw new ImportSourceError(`${file} is not a readable CSV file: ${(error as Error).message}`)
  }
}

/** `row N, column "X"` (or `the file`) of the first cell that holds bytes UTF-8 cannot read (the header is row 1). */
function garbled(bytes: Buffer): string {
  let records: string[][]
  try {
    records = parse(new TextDecoder('utf-8').decode(bytes), options) as string[][]
  } catch {
    return 'the file'
  }
  const header = records[0] ?? []
  for (const [row, record] of records.entries()) {
    const column = record.findIndex((cell) => cell.includes('\uFFFD'))
    if (column >= 0) return `row ${row + 1}, column ${header[column] !== undefined && row > 0 ? `"${header[column]}"` : column + 1}`
  }
  return 'the file'
}
