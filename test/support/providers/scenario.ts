// The story every provider scenario tells, in that provider's own events: Alice subscribes
// through Ann's referral (three paid months of 49.00 + 10% tax), Carol
// pays 100.00 once with Bob's 20% coupon (+ 8.00 tax), Ann is paid out 24.50, half of Alice's
// first month is refunded after that payout, Carol's payment is refunded in full. Where a
// scenario has them: Alice buys a product the program excludes (it earns 0.00), and cancels her
// subscription at the end (nothing earned changes).
import type { AffiliateProgram, TestClock } from '../../../src/index.js'
import type { ProviderName } from '../../../src/core/model/types.js'
import type { DomainStore } from '../../../src/storage.js'
import type { FetchHandler } from '../../../src/providers/handler.js'

export interface ProviderScenario {
  name: ProviderName
  /** Bob's coupon code as the provider names the discount. */
  bobCoupon: string
  /** The product of steps.excluded, excluded from commissions (scenarioSettings). */
  excludedProduct?: string
  handler(program: AffiliateProgram, storage: DomainStore): FetchHandler
  /** Signs the event the provider's way and posts it. */
  deliver(handler: FetchHandler, event: unknown, clock: TestClock): Promise<Response>
  /** When the provider sent the event. */
  sentAt(event: unknown): Date
  steps: {
    aliceSignup: unknown[]
    carol: unknown[]
    month1: unknown[]
    month2: unknown[]
    partialRefund: unknown[]
    fullRefund: unknown[]
    month3: unknown[]
    /** After month 2: Alice pays for the excluded product. */
    excluded?: unknown[]
    /** After month 3: Alice's subscription is canceled. */
    cancel?: unknown[]
  }
}

export const SCENARIO_SETTINGS = {
  currency: 'USD',
  holdPeriodDays: 0,
  commission: { purchase: { type: 'percentage' as const, rate: 30 }, recurring: { rate: 20, durationMonths: 2 } },
}

/** The settings of a scenario: SCENARIO_SETTINGS, with its excluded product where it has one. */
export function scenarioSettings(scenario: ProviderScenario) {
  if (!scenario.excludedProduct) return SCENARIO_SETTINGS
  return { ...SCENARIO_SETTINGS, commission: { ...SCENARIO_SETTINGS.commission, products: { [scenario.excludedProduct]: { excluded: true as const } } } }
}

/** Ann (referral code ANN) and Bob (the coupon). */
export async function scenarioAffiliates(program: AffiliateProgram, bobCoupon: string): Promise<void> {
  await program.affiliates.create({ email: 'ann@affiliates.example', referralCode: 'ANN' })
  const bob = await program.affiliates.create({ email: 'bob@affiliates.example', referralCode: 'BOB' })
  await program.coupons.create({ affiliateId: bob.id, code: bobCoupon, processorCouponId: bobCoupon })
}

export function allEvents(scenario: ProviderScenario): unknown[] {
  const { aliceSignup, carol, month1, month2, excluded = [], partialRefund, fullRefund, month3, cancel = [] } = scenario.steps
  return [...carol, ...aliceSignup, ...month1, ...month2, ...excluded, ...partialRefund, ...fullRefund, ...month3, ...cancel]
}
