// A tool's CSV exports as an import source (docs/migrating.md#csv-exports): one file per entity in a
// directory, columns found by name (case, spaces and underscores ignored) through the tool's
// layout (<tool>/csv-exports.ts). Affiliates are keyed by email, since the exports name an affiliate by email;
// a commission without an id column is keyed by a hash of its row, so a rerun finds it again.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ImportSourceError, type ImportSource, type SourceAffiliate, type SourceCommission, type SourceCoupon, type SourceCustomer } from '../source.js'
import { amountCell, dateCell } from './cells.js'
import type { CsvEntity, CsvLayout } from './layout.js'
import { CSV_LAYOUTS, type CsvTool } from './layouts.js'
import { readCsv } from './read.js'

export interface CsvSourceOptions {
  /** The directory holding the tool's export files. */
  dir: string
  /** The currency of amounts in files without a currency column (the project's). */
  currency: string
}

const normalize = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '')

export function csvSource(tool: CsvTool, options: CsvSourceOptions): ImportSource {
  const layout = CSV_LAYOUTS[tool]
  if (!existsSync(options.dir)) throw new ImportSourceError(`no such directory: ${options.dir}`)
  const affiliatesFile = fileOf(layout, 'affiliates', options.dir)
  if (!affiliatesFile) throw new ImportSourceError(`${options.dir} has no ${layout.files.affiliates.join(' or ')}: export the ${layout.label} affiliates first (docs/migrating.md)`)

  /** The rows of an entity's file (none when the file is absent), each read through the layout's column names. */
  function read(entity: CsvEntity): CsvRow[] {
    const file = entity === 'affiliates' ? affiliatesFile : fileOf(layout, entity, options.dir)
    if (!file) return []
    const [header = [], ...body] = readCsv(file)
    const index = new Map(header.map((name, i) => [normalize(name), i]))
    const columns = layout.columns[entity]
    const find = (field: string) => (columns[field] ?? []).map((name) => index.get(normalize(name))).find((i) => i !== undefined)
    const required = layout.required[entity].filter((field) => find(field) === undefined)
    if (required.length > 0) {
      throw new ImportSourceError(`${file} has no column for ${required.map((field) => `${field} (${columns[field]!.join(' / ')})`).join(', ')}`)
    }
    const positions = new Map(Object.keys(columns).map((field) => [field, find(field)]))
    return body.map((record, n) => {
      const get = (field: string) => {
        const i = positions.get(field)
        const value = i === undefined ? undefined : record[i]
        return value === undefined || value === '' ? null : value
      }
      const where = (field: string) => `${file} row ${n + 2}, column "${header[positions.get(field)!] ?? field}"`
      return { line: n + 2, get, raw: record, where }
    })
  }

  // Every file is read and its money and dates checked before anything is imported: a cell that is
  // not one stops the import naming the file, row and column, and nothing is written.
  const files = { affiliates: read('affiliates'), customers: read('customers'), commissions: read('commissions') }
  const commissions = files.commissions.map((row) => commissionOf(row, options.currency))

  const email = (value: string | null) => value?.trim().toLowerCase() ?? ''

  return {
    name: tool,
    async *affiliates(): AsyncIterable<SourceAffiliate> {
      for (const row of files.affiliates) {
        const full = row.get('name') ?? [row.get('firstName'), row.get('lastName')].filter((part) => part).join(' ')
        const token = tokenOf(row.get('token'), layout.linkParams)
        yield {
          sourceId: email(row.get('email')) || `line ${row.line}`,
          email: row.get('email') ?? '',
          name: full === '' ? null : full,
          status: layout.affiliateStatus[(row.get('status') ?? 'active').toLowerCase()] ?? 'pending',
          paypalEmail: row.get('paypalEmail'),
          tokens: token ? [token] : [],
          group: row.get('group'),
        }
      }
    },
    async *coupons(): AsyncIterable<SourceCoupon> {
      for (const row of files.affiliates) {
        const code = row.get('couponCode')
        if (code) yield { sourceId: `coupon ${code}`, affiliateSourceId: email(row.get('email')), code, providerCouponId: null }
      }
    },
    async *customers(): AsyncIterable<SourceCustomer> {
      for (const row of files.customers) {
        const state = (row.get('status') ?? '').toLowerCase()
        yield {
          sourceId: row.get('id') ?? `line ${row.line}`,
          affiliateSourceId: email(row.get('affiliateEmail')),
          email: row.get('email'),
          converted: layout.convertedStates.includes(state),
          providerCustomerId: row.get('providerCustomerId'),
        }
      }
    },
    async *commissions(): AsyncIterable<SourceCommission> {
      const seen = new Map<string, number>()
      for (const [index, row] of files.commissions.entries()) {
        const { currency, amountMinor, saleAmountMinor, occurredAt } = commissions[index]!
        yield {
          sourceId: row.get('id') ?? rowKey(row.raw, seen),
          affiliateSourceId: email(row.get('affiliateEmail')),
          customerEmail: row.get('customerEmail'),
          amountMinor,
          currency,
          state: layout.commissionState[(row.get('status') ?? '').toLowerCase()] ?? 'pending',
          occurredAt,
          saleAmountMinor,
          saleCurrency: currency,
        }
      }
    },
  }
}

interface CsvRow {
  line: number
  get: (field: string) => string | null
  raw: string[]
  /** `<file> row N, column "<its header>"`, for messages. */
  where: (field: string) => string
}

/** A commission row's money and date, checked; the first cell that is not one stops the import. */
function commissionOf(row: CsvRow, projectCurrency: string) {
  const refuse = (field: string, problem: string): never => {
    throw new ImportSourceError(`${row.where(field)}: ${problem}; nothing was imported`)
  }
  const currencyCell = row.get('currency')
  if (currencyCell !== null && !/^[A-Za-z]{3}$/.test(currencyCell)) refuse('currency', `"${currencyCell}" is not a currency code (USD, EUR...)`)
  const currency = (currencyCell ?? projectCurrency).toUpperCase()
  const money = (field: string, text: string | null) => {
    if (text === null) return refuse(field, 'is empty')
    const cell = amountCell(text, currency)
    return 'minor' in cell ? cell.minor : refuse(field, cell.problem)
  }
  const amountMinor = money('amount', row.get('amount'))
  const sale = row.get('saleAmount')
  const saleAmountMinor = sale === null ? null : money('saleAmount', sale)
  const dateText = row.get('date')
  if (dateText === null) return refuse('date', 'is empty')
  const date = dateCell(dateText)
  if ('problem' in date) return refuse('date', date.problem)
  return { currency, amountMinor, saleAmountMinor, occurredAt: date.date }
}

function fileOf(layout: CsvLayout, entity: CsvEntity, dir: string): string | null {
  return layout.files[entity].map((name) => join(dir, name)).find((path) => existsSync(path)) ?? null
}

/** `row:` and a hash of the row's cells, numbered when the same row appears again. */
function rowKey(cells: string[], seen: Map<string, number>): string {
  const hash = createHash('sha256').update(JSON.stringify(cells)).digest('hex').slice(0, 16)
  const count = (seen.get(hash) ?? 0) + 1
  seen.set(hash, count)
  return count === 1 ? `row:${hash}` : `row:${hash}:${count}`
}

/** A link token: the value itself, or from a link URL its tracking parameter (`?via=`) or else its last path segment. */
export function tokenOf(value: string | null, params: readonly string[]): string | null {
  if (value === null) return null
  if (!/[/?=]/.test(value)) return value
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`)
  } catch {
    return value
  }
  for (const param of params) {
    const found = url.searchParams.get(param)
    if (found) return found
  }
  return url.pathname.split('/').filter((part) => part).at(-1) ?? null
}
