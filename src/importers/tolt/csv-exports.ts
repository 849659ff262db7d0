// Where Tolt's CSV exports put what the import needs (docs/migrating.md#csv-exports): file names,
// the column names of each field (first found wins) and the tool's status words.
import { affiliateColumns, REQUIRED_COLUMNS, type CsvExports } from '../csv/layout.js'

export const toltCsvExports: CsvExports = {
  files: { affiliates: ['partners.csv'], customers: ['customers.csv'], commissions: ['commissions.csv'] },
  columns: {
    affiliates: affiliateColumns({ token: ['Referral link', 'Link', 'Ref', 'Referral code'], group: ['Group'], paypalEmail: ['PayPal email', 'Payout email'], couponCode: ['Promotion code', 'Coupon'] }),
    customers: { id: ['ID', 'Customer ID'], email: ['Email', 'Customer email', 'Customer'], affiliateEmail: ['Partner email', 'Partner'], status: ['Status'], providerCustomerId: ['Identifier', 'Customer identifier'] },
    commissions: {
      id: ['ID', 'Commission ID'],
      affiliateEmail: ['Partner email', 'Partner'],
      customerEmail: ['Customer email', 'Customer'],
      amount: ['Amount', 'Commission'],
      currency: ['Currency'],
      status: ['Status'],
      date: ['Date', 'Created at'],
      saleAmount: ['Revenue', 'Transaction amount'],
    },
  },
  required: REQUIRED_COLUMNS,
  linkParams: ['ref', 'via'],
  affiliateStatus: { active: 'active', suspended: 'inactive', rejected: 'blocked' },
  convertedStates: ['active', 'suspended', 'refunded', 'paid', 'customer'],
  commissionState: { pending: 'pending', approved: 'due', paid: 'paid', rejected: 'voided', refunded: 'voided' },
}
