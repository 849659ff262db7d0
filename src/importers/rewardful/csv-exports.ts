// Where Rewardful's CSV exports put what the import needs (docs/migrating.md#csv-exports): file names,
// the column names of each field (first found wins) and the tool's status words.
import { affiliateColumns, REQUIRED_COLUMNS, type CsvExports } from '../csv/layout.js'

export const rewardfulCsvExports: CsvExports = {
  files: { affiliates: ['affiliates.csv'], customers: ['referrals.csv', 'customers.csv'], commissions: ['commissions.csv'] },
  columns: {
    affiliates: affiliateColumns({ token: ['Token', 'Link token', 'Link', 'Referral link'], group: ['Campaign'], couponCode: ['Coupon', 'Coupon code'] }),
    customers: { id: ['ID'], email: ['Email', 'Customer email'], affiliateEmail: ['Affiliate email', 'Affiliate'], status: ['Conversion state', 'State', 'Status'], providerCustomerId: ['Stripe customer ID', 'Stripe customer'] },
    commissions: {
      id: ['ID', 'Commission ID'],
      affiliateEmail: ['Affiliate email', 'Affiliate'],
      customerEmail: ['Customer email', 'Customer'],
      amount: ['Amount', 'Commission'],
      currency: ['Currency'],
      status: ['State', 'Status'],
      date: ['Charged at', 'Created at', 'Date'],
      saleAmount: ['Sale amount', 'Sale'],
    },
  },
  required: REQUIRED_COLUMNS,
  linkParams: ['via', 'ref'],
  affiliateStatus: { active: 'active', disabled: 'inactive', suspicious: 'blocked' },
  convertedStates: ['conversion', 'converted', 'customer'],
  commissionState: { pending: 'pending', due: 'due', paid: 'paid', voided: 'voided' },
}
