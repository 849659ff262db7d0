// A tool's CSV exports as an import source (docs/migrating.md#csv-exports): one file per entity in a
// directory, columns found by name (case, spaces and underscores ignored) through the tool's
// layout (layouts.ts). Affiliates are keyed by email, since the exports name an affiliate by email;
// a commission without an id column is keyed by a hash of its row, so a rerun finds it again.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { minorDigits } from '../../core/money.js'
import { ImportSourceError, type ImportSource, type SourceAffiliate, type SourceCommission, type SourceCoupon, type SourceCustomer } from '../source.js'
import { CSV_LAYOUTS, type CsvEntity, type CsvLayout, type CsvTool } from './layouts.js'

export interface CsvSourceOptions {
  /** The directory holding the tool's export files. */
  dir: string
  /** The currency of amounts in files without a currency column (the project's). */
  currency: string
}

type Row = Record<string, string>

const normalize = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '')

export function csvSource(tool: CsvTool, options: CsvSourceOptions): ImportSource {
  const layout = CSV_LAYOUTS[tool]
  if (!existsSync(options.dir)) throw new ImportSourceError(`no such directory: ${options.dir}`)
  const affiliatesFile = fileOf(layout, 'affiliates', options.dir)
  if (!affiliatesFile) throw new ImportSourceError(`${options.dir} has no ${layout.files.affiliates.join(' or ')}: export the ${layout.label} affiliates first (docs/migrating.md)`)

  /** The rows of an entity's file (none when the file is absent), each read through the layout's column names. */
  function* rows(entity: CsvEntity): Iterable<{ line: number; get: (field: string) => string | null; raw: string[] }> {
    const file = entity === 'affiliates' ? affiliatesFile : fileOf(layout, entity, options.dir)
    if (!file) return
    let records: string[][]
    try {
      records = parse(readFileSync(file), { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][]
    } catch (error) {
      throw new ImportSourceError(`${file} is not a readable CSV file: ${(error as Error).message}`)
    }
    const [header = [], ...body] = records
    const index = new Map(header.map((name, i) => [normalize(name), i]))
    const columns = layout.columns[entity]
    const find = (field: string) => (columns[field] ?? []).map((name) => index.get(normalize(name))).find((i) => i !== undefined)
    const required = layout.required[entity].filter((field) => find(field) === undefined)
    if (required.length > 0) {
      throw new ImportSourceError(`${file} has no column for ${required.map((field) => `${field} (${columns[field]!.join(' / ')})`).join(', ')}`)
    }
    const positions = new Map(Object.keys(columns).map((field) => [field, find(field)]))
    for (const [n, record] of body.entries()) {
      const get = (field: string) => {
        const i = positions.get(field)
        const value = i === undefined ? undefined : record[i]
        return value === undefined || value === '' ? null : value
      }
      yield { line: n + 2, get, raw: record }
    }
  }

  const email = (value: string | null) => value?.trim().toLowerCase() ?? ''

  return {
    name: tool,
    async *affiliates(): AsyncIterable<SourceAffiliate> {
      for (const row of rows('affiliates')) {
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
      for (const row of rows('affiliates')) {
        const code = row.get('couponCode')
        if (code) yield { sourceId: `coupon ${code}`, affiliateSourceId: email(row.get('email')), code, providerCouponId: null }
      }
    },
    async *customers(): AsyncIterable<SourceCustomer> {
      for (const row of rows('customers')) {
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
      for (const row of rows('commissions')) {
        const currency = (row.get('currency') ?? options.currency).toUpperCase()
        const sale = row.get('saleAmount')
        yield {
          sourceId: row.get('id') ?? rowKey(row.raw, seen),
          affiliateSourceId: email(row.get('affiliateEmail')),
          customerEmail: row.get('customerEmail'),
          amountMinor: minorOf(row.get('amount'), currency),
          currency,
          state: layout.commissionState[(row.get('status') ?? '').toLowerCase()] ?? 'pending',
          occurredAt: dateOf(row.get('date')),
          saleAmountMinor: sale === null ? null : minorOf(sale, currency),
          saleCurrency: currency,
        }
      }
    },
  }
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

/** Minor units of a money cell ("$1,234.56", "12.5", "EUR 3"): NaN when it is not one, which the import refuses. */
export function minorOf(text: string | null, currency: string): number {
  if (text === null) return Number.NaN
  const cleaned = text.replace(/[^0-9.,-]/g, '').replace(/,(?=\d{3}(\D|$))/g, '')
  const match = /^(-?)(\d+)(?:[.,](\d+))?$/.exec(cleaned)
  const digits = minorDigits(currency)
  if (!match || (match[3] ?? '').length > digits) return Number.NaN
  const minor = Number(match[2]) * 10 ** digits + Number((match[3] ?? '').padEnd(digits, '0') || '0')
  return match[1] ? -minor : minor
}

/** A date cell: ISO 8601, or a date alone read as midnight UTC; Invalid Date otherwise (refused). */
function dateOf(text: string | null): Date {
  if (text === null) return new Date(Number.NaN)
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text)
}
