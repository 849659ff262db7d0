// Where Dub's CSV exports put what the import needs (docs/migrating.md#csv-exports): file names,
// the column names of each field (first found wins) and the tool's status words.
import { affiliateColumns, REQUIRED_COLUMNS, type CsvExports } from '../csv/layout.js'

export const dubCsvExports: CsvExports = {
  files: { affiliates: ['partners.csv'], customers: ['customers.csv'], commissions: ['commissions.csv'] },
  columns: {
    affiliates: affiliateColumns({ token: ['Link', 'Short link', 'Link key'], group: ['Group'] }),
    customers: { id: ['ID', 'Customer ID'], email: ['Email', 'Customer email'], affiliateEmail: ['Partner email', 'Partner'], status: ['Status'], providerCustomerId: ['External ID'] },
    // Dub's commission table: Date, Customer, Partner, Type, Amount (the sale), Commission, Status.
    commissions: {
      id: ['ID', 'Commission ID'],
      affiliateEmail: ['Partner email', 'Partner'],
      customerEmail: ['Customer email', 'Customer'],
      amount: ['Commission', 'Earnings'],
      currency: ['Currency'],
      status: ['Status'],
      date: ['Date', 'Created at'],
      saleAmount: ['Amount', 'Sale amount'],
    },
  },
  required: REQUIRED_COLUMNS,
  linkParams: ['via', 'ref'],
  affiliateStatus: { approved: 'active', pending: 'pending', banned: 'blocked', declined: 'blocked', archived: 'inactive', deactivated: 'inactive' },
  convertedStates: ['customer', 'active', 'converted'],
  commissionState: { pending: 'pending', processed: 'due', paid: 'paid', refunded: 'voided', duplicate: 'voided', fraud: 'voided', canceled: 'voided' },
}
