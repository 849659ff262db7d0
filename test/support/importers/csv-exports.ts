// CSV export files of each tool, in the columns docs/migrating.md lists for it (Dub's commission
// columns are its documented commission table: Date, Customer, Partner, Type, Amount, Commission,
// Status). Same program in each: three affiliates, customers, and commissions whose hand totals
// the tests check. Written with a byte-order mark, CRLF line ends and quoted cells, as
// spreadsheet tools write them.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CsvTool } from '../../../src/importers/index.js'

const csv = (rows: string[][]) => `\uFEFF${rows.map((row) => row.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\r\n')}\r\n`

export const CSV_FILES: Record<CsvTool, Record<string, string[][]>> = {
  rewardful: {
    'affiliates.csv': [
      ['First name', 'Last name', 'Email', 'PayPal email', 'State', 'Token', 'Campaign', 'Coupon'],
      ['James', 'Bond', 'james@example.com', 'james.paypal@example.com', 'active', 'https://www.example.com/?via=jb007', 'Friends of MI6', 'JB007SAVE'],
      ['Eve', 'Moneypenny', 'eve@example.com', '', 'disabled', 'eve', 'Friends of MI6', ''],
      ['Q', 'Branch', 'q@example.com', '', 'active', 'qbranch', 'Friends of MI6', ''],
    ],
    'referrals.csv': [
      ['Email', 'Affiliate email', 'Conversion state', 'Stripe customer ID'],
      ['alice@example.com', 'james@example.com', 'conversion', 'cus_alice'],
      ['bob@example.com', 'james@example.com', 'lead', 'cus_bob'],
      ['dave@example.com', 'q@example.com', 'conversion', 'cus_dave'],
    ],
    'commissions.csv': [
      ['ID', 'Affiliate email', 'Customer email', 'Amount', 'Currency', 'State', 'Charged at', 'Sale amount'],
      ['c3', 'james@example.com', 'alice@example.com', '$14.99', 'USD', 'pending', '2026-02-20T10:00:00Z', '$49.97'],
      ['c4', 'james@example.com', 'alice@example.com', '$25.00', 'USD', 'voided', '2026-02-10T10:00:00Z', '$100.00'],
      ['c2', 'james@example.com', 'alice@example.com', '$30.00', 'USD', 'due', '2026-01-20T10:00:00Z', '$100.00'],
      ['c6', 'q@example.com', 'dave@example.com', '$1,050.00', 'USD', 'paid', '2026-01-15T10:00:00Z', '$4,200.00'],
      ['c5', 'eve@example.com', '', '12.34', 'USD', 'due', '2026-01-10', '41.13'],
      ['c1', 'james@example.com', 'alice@example.com', '$30.00', 'USD', 'paid', '2026-01-05T10:00:00Z', '$100.00'],
    ],
  },
  tolt: {
    'partners.csv': [
      ['Name', 'Email', 'Status', 'Group', 'Payout email', 'Referral link'],
      ['Michael Scott', 'michael@example.com', 'active', 'Sales', 'michael.paypal@example.com', 'https://www.example.com?ref=michael'],
      ['Dwight Schrute', 'dwight@example.com', 'suspended', 'Sales', '', 'https://www.example.com?ref=dwight'],
      ['Jim Halpert', 'jim@example.com', 'active', 'Sales', '', 'https://www.example.com?ref=jim'],
    ],
    'customers.csv': [
      ['Customer email', 'Partner email', 'Status', 'Identifier'],
      ['pam@example.com', 'michael@example.com', 'active', 'cus_pam'],
      ['kevin@example.com', 'michael@example.com', 'lead', ''],
    ],
    // No ID column: rows are keyed by their content.
    'commissions.csv': [
      ['Date', 'Partner email', 'Customer email', 'Amount', 'Revenue', 'Status'],
      ['2026-02-25', 'michael@example.com', 'pam@example.com', '15.00', '50.00', 'pending'],
      ['2026-02-10', 'michael@example.com', 'pam@example.com', '25.00', '99.99', 'rejected'],
      ['2026-01-20', 'dwight@example.com', 'oscar@example.com', '12.34', '41.13', 'approved'],
      ['2026-01-15', 'jim@example.com', 'angela@example.com', '50.00', '200.00', 'paid'],
      ['2026-01-05', 'michael@example.com', 'pam@example.com', '19.99', '99.99', 'paid'],
      ['2026-01-05', 'michael@example.com', 'pam@example.com', '19.99', '99.99', 'paid'],
    ],
  },
  firstpromoter: {
    'promoters.csv': [
      ['ID', 'First name', 'Last name', 'Email', 'PayPal email', 'Ref ID', 'Campaign', 'Status', 'Promo code'],
      ['101', 'Leslie', 'Knope', 'leslie@example.com', 'leslie.paypal@example.com', 'leslie', 'Partners', 'active', 'LESLIE10'],
      ['102', 'Ron', 'Swanson', 'ron@example.com', '', 'ron', 'Partners', 'inactive', ''],
      ['103', 'Ann', 'Perkins', 'ann@example.com', '', 'ann', 'Partners', 'active', ''],
    ],
    'leads.csv': [
      ['Email', 'Promoter email', 'State', 'UID'],
      ['tom@example.com', 'leslie@example.com', 'active', 'cus_tom'],
      ['april@example.com', 'leslie@example.com', 'signup', ''],
    ],
    'rewards.csv': [
      ['ID', 'Promoter email', 'Lead email', 'Amount', 'Sale amount', 'Status', 'Created at'],
      ['6', 'leslie@example.com', 'tom@example.com', '10.00', '100.00', 'pending', '2026-02-26T10:00:00Z'],
      ['4', 'leslie@example.com', 'tom@example.com', '20.00', '100.00', 'denied', '2026-01-25T10:00:00Z'],
      ['3', 'ron@example.com', 'andy@example.com', '7.77', '38.85', 'approved', '2026-01-20T10:00:00Z'],
      ['2', 'ann@example.com', 'chris@example.com', '43.21', '216.05', 'paid', '2026-01-12T10:00:00Z'],
      ['1', 'leslie@example.com', 'tom@example.com', '20.00', '100.00', 'approved', '2026-01-05T10:00:00Z'],
    ],
  },
  dub: {
    'partners.csv': [
      ['ID', 'Name', 'Email', 'Status', 'Link'],
      ['pn_alex', 'Alex Doe', 'alex@example.com', 'approved', 'https://dub.sh/alex'],
      ['pn_sam', 'Sam Roe', 'sam@example.com', 'banned', 'https://dub.sh/sam'],
      ['pn_kim', 'Kim Poe', 'kim@example.com', 'approved', 'dub.sh/kim'],
    ],
    'customers.csv': [
      ['Email', 'Partner email', 'External ID'],
      ['lee@example.com', 'alex@example.com', 'cus_lee'],
    ],
    'commissions.csv': [
      ['ID', 'Date', 'Customer', 'Partner', 'Type', 'Amount', 'Commission', 'Status'],
      ['cm_4', '2026-02-27T10:00:00Z', 'lee@example.com', 'alex@example.com', 'sale', '$50.00', '$12.50', 'Pending'],
      ['cm_5', '2026-02-12T10:00:00Z', 'lee@example.com', 'alex@example.com', 'sale', '$100.00', '$25.00', 'Refunded'],
      ['cm_2', '2026-02-01T10:00:00Z', 'lee@example.com', 'alex@example.com', 'sale', '$100.00', '$25.00', 'Processed'],
      ['cm_6', '2026-01-20T10:00:00Z', 'joy@example.com', 'sam@example.com', 'sale', '$50.00', '$9.99', 'Pending'],
      ['cm_7', '2026-01-15T10:00:00Z', 'ray@example.com', 'kim@example.com', 'sale', '$120.00', '$36.00', 'Paid'],
      ['cm_1', '2026-01-05T10:00:00Z', 'lee@example.com', 'alex@example.com', 'sale', '$100.00', '$25.00', 'Paid'],
    ],
  },
}

/** Writes the tool's export files into `dir`. */
export function writeExports(tool: CsvTool, dir: string, files = CSV_FILES[tool]) {
  for (const [name, rows] of Object.entries(files)) {
    writeFileSync(join(dir, name), csv(rows))
  }
}
