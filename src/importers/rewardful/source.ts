// Rewardful as an import source: /affiliates, /affiliate_coupons, /referrals, /commissions and /payouts
// mapped to plain records (docs/migrating.md#rewardful). Only fields the published API documents are read.
import type { AffiliateStatus } from '../../core/model/types.js'
import type { ImportSource, SourceAffiliate, SourceCommission, SourceCommissionState, SourceCoupon, SourceCustomer, SourcePayout } from '../source.js'
import { rewardfulClient, type RewardfulClientOptions } from './client.js'

interface RewardfulAffiliate {
  id: string
  first_name?: string | null
  last_name?: string | null
  email: string
  paypal_email?: string | null
  state?: string
  campaign?: { name?: string } | null
  links?: { token?: string }[]
}

interface RewardfulCoupon {
  id: string
  token: string
  external_id?: string | null
  affiliate_id: string
}

interface RewardfulReferral {
  id: string
  conversion_state?: string
  became_conversion_at?: string | null
  stripe_customer_id?: string | null
  customer?: { id?: string | null; email?: string | null } | null
  affiliate?: { id: string } | null
}

interface RewardfulCommission {
  id: string
  created_at: string
  amount: number
  currency: string
  state: string
  affiliate?: { id: string } | null
  sale?: {
    charged_at?: string | null
    currency?: string | null
    sale_amount_cents?: number | null
    affiliate?: { id: string } | null
    referral?: { customer?: { email?: string | null } | null } | null
  } | null
}

interface RewardfulPayout {
  id: string
  state: string
  paid_at?: string | null
  affiliate?: { id: string } | null
  commissions?: { id: string }[]
}

/** Rewardful's affiliate states; any other reads as pending (to approve by hand). */
const AFFILIATE_STATUS: Record<string, AffiliateStatus> = { active: 'active', disabled: 'inactive', suspicious: 'blocked' }
const COMMISSION_STATE: Record<string, SourceCommissionState> = { pending: 'pending', due: 'due', paid: 'paid', voided: 'voided' }

export function rewardfulSource(options: RewardfulClientOptions): ImportSource {
  const client = rewardfulClient(options)
  return {
    name: 'rewardful',
    async *affiliates(): AsyncIterable<SourceAffiliate> {
      for await (const affiliate of client.list<RewardfulAffiliate>('/affiliates')) {
        const name = [affiliate.first_name, affiliate.last_name].filter((part) => part).join(' ')
        yield {
          sourceId: affiliate.id,
          email: affiliate.email,
          name: name === '' ? null : name,
          status: AFFILIATE_STATUS[affiliate.state ?? 'active'] ?? 'pending',
          paypalEmail: affiliate.paypal_email || null,
          tokens: (affiliate.links ?? []).map((link) => link.token).filter((token): token is string => typeof token === 'string'),
          group: affiliate.campaign?.name ?? null,
        }
      }
    },
    async *coupons(): AsyncIterable<SourceCoupon> {
      for await (const coupon of client.list<RewardfulCoupon>('/affiliate_coupons')) {
        yield { sourceId: coupon.id, affiliateSourceId: coupon.affiliate_id, code: coupon.token, providerCouponId: coupon.external_id ?? null }
      }
    },
    async *customers(): AsyncIterable<SourceCustomer> {
      for await (const referral of client.list<RewardfulReferral>('/referrals')) {
        yield {
          sourceId: referral.id,
          affiliateSourceId: referral.affiliate?.id ?? '',
          email: referral.customer?.email || null,
          converted: referral.conversion_state === 'conversion',
          providerCustomerId: referral.stripe_customer_id ?? referral.customer?.id ?? null,
          firstPurchaseAt: referral.became_conversion_at ? new Date(referral.became_conversion_at) : null,
        }
      }
    },
    async *commissions(): AsyncIterable<SourceCommission> {
      for await (const commission of client.list<RewardfulCommission>('/commissions', { 'expand[]': 'sale' })) {
        const sale = commission.sale ?? null
        yield {
          sourceId: commission.id,
          affiliateSourceId: sale?.affiliate?.id ?? commission.affiliate?.id ?? '',
          customerEmail: sale?.referral?.customer?.email || null,
          amountMinor: commission.amount,
          currency: commission.currency,
          state: COMMISSION_STATE[commission.state] ?? 'pending',
          occurredAt: new Date(sale?.charged_at ?? commission.created_at),
          saleAmountMinor: sale?.sale_amount_cents ?? null,
          saleCurrency: sale?.currency ?? null,
        }
      }
    },
    async *payouts(): AsyncIterable<SourcePayout> {
      for await (const payout of client.list<RewardfulPayout>('/payouts', { 'state': 'paid', 'expand[]': 'commissions' })) {
        if (payout.state !== 'paid' || !payout.paid_at) continue
        yield {
          sourceId: payout.id,
          affiliateSourceId: payout.affiliate?.id ?? '',
          paidAt: new Date(payout.paid_at),
          commissionSourceIds: (payout.commissions ?? []).map((commission) => commission.id),
        }
      }
    },
  }
}
