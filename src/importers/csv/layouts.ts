// Where each tool's CSV exports put what the import needs: file names, the column names of each
// field (first found wins; docs/migrating.md lists them and says which are assumptions), and the
// tool's status words. Only Dub documents its commission table's columns; the others follow the
// labels of the tool's dashboard tables and API fields.
import type { AffiliateStatus } from '../../core/types.js'
import type { SourceCommissionState } from '../source.js'

export type CsvTool = 'rewardful' | 'tolt' | 'firstpromoter' | 'dub'
export type CsvEntity = 'affiliates' | 'customers' | 'commissions'

export interface CsvLayout {
  label: string
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

const REQUIRED = { affiliates: ['email'], customers: ['email', 'affiliateEmail'], commissions: ['affiliateEmail', 'amount', 'status', 'date'] }

const affiliateColumns = (more: Record<string, string[]>) => ({
  email: ['Email', 'Email address'],
  name: ['Name', 'Full name'],
  firstName: ['First name'],
  lastName: ['Last name'],
  status: ['Status', 'State'],
  paypalEmail: ['PayPal email', 'Paypal'],
  ...more,
})

export const CSV_LAYOUTS: Record<CsvTool, CsvLayout> = {
  rewardful: {
    label: 'Rewardful',
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
    required: REQUIRED,
    linkParams: ['via', 'ref'],
    affiliateStatus: { active: 'active', disabled: 'inactive', suspicious: 'blocked' },
    convertedStates: ['conversion', 'converted', 'customer'],
    commissionState: { pending: 'pending', due: 'due', paid: 'paid', voided: 'voided' },
  },
  tolt: {
    label: 'Tolt',
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
    required: REQUIRED,
    linkParams: ['ref', 'via'],
    affiliateStatus: { active: 'active', suspended: 'inactive', rejected: 'blocked' },
    convertedStates: ['active', 'suspended', 'refunded', 'paid', 'customer'],
    commissionState: { pending: 'pending', approved: 'due', paid: 'paid', rejected: 'voided', refunded: 'voided' },
  },
  firstpromoter: {
    label: 'FirstPromoter',
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
    required: REQUIRED,
    linkParams: ['fpr', 'via', 'ref'],
    affiliateStatus: { active: 'active', accepted: 'active', inactive: 'inactive', blocked: 'blocked', denied: 'blocked', rejected: 'blocked' },
    convertedStates: ['active', 'cancelled', 'customer'],
    commissionState: { pending: 'pending', approved: 'due', unpaid: 'due', paid: 'paid', denied: 'voided', rejected: 'voided' },
  },
  dub: {
    label: 'Dub',
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
    required: REQUIRED,
    linkParams: ['via', 'ref'],
    affiliateStatus: { approved: 'active', pending: 'pending', banned: 'blocked', declined: 'blocked', archived: 'inactive', deactivated: 'inactive' },
    convertedStates: ['customer', 'active', 'converted'],
    commissionState: { pending: 'pending', processed: 'due', paid: 'paid', refunded: 'voided', duplicate: 'voided', fraud: 'voided', canceled: 'voided' },
  },
}
