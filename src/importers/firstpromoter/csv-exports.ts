// Where FirstPromoter's CSV exports put what the import needs (docs/migrating.md#csv-exports): file names,
// the column names of each field (first found wins) and the tool's status words.
import { affiliateColumns, REQUIRED_COLUMNS, type CsvExports } from '../csv/layout.js'

export const firstPromoterCsvExports: CsvExports = {
  files: { affiliates: ['promoters.csv'], customers: ['leads.csv', 'referrals.csv'], commissions: ['rewards.csv', 'commissions.csv'] },
  columns: {
    affiliates: affiliateColumns({ token: ['Ref ID', 'Referral ID', 'Ref token', 'Referral link'], group: ['Campaign', 'Campaign name'], couponCode: ['Promo code', 'Coupon'] }),
    customers: { id: ['ID', 'Lead ID'], email: ['Email', 'Lead email'], affiliateEmail: ['Promoter email', 'Promoter'], status: ['State', 'Status'], providerCustomerId: ['UID', 'Customer ID'] },
    commissions: {
      id: ['ID', 'Reward ID', 'Commission ID'],
      affiliateEmail: ['Promoter email', 'Promoter'],
      customerEmail: ['Lead email', 'Referral email', 'Customer email'],
      amount: ['Amount', 'Commission', 'Reward'],
      currency: ['Currency'],
      status: ['Status', 'State'],
      date: ['Created at', 'Date'],
      saleAmount: ['Sale amount', 'Conversion amount'],
    },
  },
  required: REQUIRED_COLUMNS,
  linkParams: ['fpr', 'via', 'ref'],
  affiliateStatus: { active: 'active', accepted: 'active', inactive: 'inactive', blocked: 'blocked', denied: 'blocked', rejected: 'blocked' },
  convertedStates: ['active', 'cancelled', 'customer'],
  commissionState: { pending: 'pending', approved: 'due', unpaid: 'due', paid: 'paid', denied: 'voided', rejected: 'voided' },
}
