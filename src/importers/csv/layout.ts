// What a tool's CSV exports look like to the import: file names, the column names of each field
// (first found wins; docs/migrating.md lists them and says which are assumptions), and the tool's
// status words. Each tool's folder gives its own (<tool>/csv-exports.ts). Only Dub documents its
// commission table's columns; the others follow the labels of the tool's dashboard tables and API
// fields.
import type { AffiliateStatus } from '../../core/model/types.js'
import type { SourceCommissionState } from '../source.js'

export type CsvEntity = 'affiliates' | 'customers' | 'commissions'

export interface CsvExports {
  /** File names tried in order, in the export directory. */
  files: Record<CsvEntity, string[]>
  /** Field → column names. */
  columns: Record<CsvEntity, Record<string, string[]>>
  required: Record<CsvEntity, string[]>
  /** Query parameters of the tool's links, to read a token out of a link URL. */
  linkParams: string[]
  affiliateStatus: Record<string, AffiliateStatus>
  convertedStates: string[]
  commissionState: Record<string, SourceCommissionState>
}

/** A tool's exports with the tool's name as people write it (its registry entry's label). */
export interface CsvLayout extends CsvExports {
  label: string
}

/** The columns every tool's files need. */
export const REQUIRED_COLUMNS = { affiliates: ['email'], customers: ['email', 'affiliateEmail'], commissions: ['affiliateEmail', 'amount', 'status', 'date'] }

/** The affiliates' columns every tool's file may have, and the tool's own. */
export const affiliateColumns = (more: Record<string, string[]>) => ({
  email: ['Email', 'Email address'],
  name: ['Name', 'Full name'],
  firstName: ['First name'],
  lastName: ['Last name'],
  status: ['Status', 'State'],
  paypalEmail: ['PayPal email', 'Paypal'],
  ...more,
})
