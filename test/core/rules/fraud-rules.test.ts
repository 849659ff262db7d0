// The fraud rules' pure part (docs/fraud.md): each rule trips on its signal and not without it,
// emails compare without case or +tag, mailchecker's list decides disposable domains, the
// strictest action wins and a bad fraudCheck answer is refused. Rules that read the storage are
// also run on every adapter (test/conformance/fraud.case.ts).
import { describe, expect, it } from 'vitest'
import { fraudVerdict } from '../../../src/core/rules/fraud/check.js'
import { domainOf, isDisposableDomain, mailbox } from '../../../src/core/rules/fraud/email.js'
import { trippedRules } from '../../../src/core/rules/fraud/rules.js'
import { fraudSettingsOf } from '../../../src/core/rules/fraud/settings.js'
import type { FraudSignals } from '../../../src/core/rules/fraud/signals.js'
import { Currency } from '../../../src/core/model/money.js'
import { createAffiliateProgram, testClock } from '../../../src/index.js'
import { memoryStorage } from '../../../src/adapters/memory/index.js'

const USD = new Currency('USD')
const quiet: FraudSignals = {
  customerIsAffiliate: false,
  sameEmailDomain: false,
  disposableEmail: false,
  clickVisitor: null,
  sameVisitor: false,
  paidAdClickId: null,
  cardFingerprint: null,
  cardUsedByAffiliate: false,
  visitorSignups: null,
  affiliateSignups: null,
  amount: null,
}
const everyRule = fraudSettingsOf({
  selfReferral: 'review',
  sameVisitor: 'review',
  disposableEmail: 'review',
  paidAdsClick: 'review',
  amountAbove: { amount: '500.00', action: 'review' },
  signupsPerVisitorPerDay: { max: 3, action: 'review' },
})
/** What the rules compare beside the signals: the currency and the amount the signals show, in minor units. */
const contextOf = (signals: FraudSignals) => ({ currency: USD, amountMinor: signals.amount === null ? null : USD.parse(signals.amount, 'amount').minor })
const rulesOf = (partial: Partial<FraudSignals>) => {
  const signals = { ...quiet, ...partial }
  return trippedRules(signals, everyRule, contextOf(signals)).map((flag) => flag.rule)
}

describe('fraud rules: each trips on its signal, and only on it', () => {
  it('nothing trips on a quiet conversion', () => {
    expect(rulesOf({})).toEqual([])
  })

  const cases: Array<[string, Partial<FraudSignals>, Partial<FraudSignals>]> = [
    ['selfReferral', { customerIsAffiliate: true }, { sameEmailDomain: true }],
    ['selfReferral', { cardUsedByAffiliate: true }, { cardFingerprint: 'fp_1' }],
    ['sameVisitor', { clickVisitor: 'v'.repeat(16), sameVisitor: true }, { clickVisitor: 'v'.repeat(16) }],
    ['disposableEmail', { disposableEmail: true }, {}],
    ['paidAdsClick', { clickVisitor: 'v'.repeat(16), paidAdClickId: 'fbclid' }, { clickVisitor: 'v'.repeat(16) }],
    ['amountAbove', { amount: '500.01' }, { amount: '500.00' }],
    ['signupsPerVisitorPerDay', { clickVisitor: 'v'.repeat(16), visitorSignups: 3 }, { clickVisitor: 'v'.repeat(16), visitorSignups: 2 }],
  ]
  for (const [rule, trips, passes] of cases) {
    it(`${rule} trips on ${JSON.stringify(trips)} and not on ${JSON.stringify(passes)}`, () => {
      expect(rulesOf(trips)).toEqual([rule])
      expect(rulesOf(passes)).toEqual([])
    })
  }

  it('a rule set to allow still shows among the flags but decides nothing', async () => {
    const settings = fraudSettingsOf({ disposableEmail: 'allow' })
    const signals = { ...quiet, disposableEmail: true }
    expect(trippedRules(signals, settings, contextOf(signals)).map((flag) => flag.action)).toEqual(['allow'])
    expect(await fraudVerdict({ conversion: {} as never, signals, settings, ...contextOf(signals) }, undefined)).toEqual({ action: 'allow', reason: null })
  })
})

describe('fraud verdict', () => {
  const conversion = {} as never
  it('the strictest action wins and every acting reason is kept', async () => {
    const settings = fraudSettingsOf({ disposableEmail: 'reject' })
    const signals = { ...quiet, customerIsAffiliate: true, disposableEmail: true }
    expect(await fraudVerdict({ conversion, signals, settings, ...contextOf(signals) }, undefined)).toEqual({
      action: 'reject',
      reason: "self-referral: the customer's email is the affiliate's; disposable email: the customer's email domain is a disposable-mail domain",
    })
  })

  it('fraudCheck adds its action and reason; a reason-less review gets a generic one; a bad answer is a TypeError', async () => {
    const settings = fraudSettingsOf({})
    const input = { conversion, signals: quiet, settings, ...contextOf(quiet) }
    expect(await fraudVerdict(input, async () => ({ action: 'review', reason: 'country on the watch list' }))).toEqual({ action: 'review', reason: 'country on the watch list' })
    expect(await fraudVerdict(input, () => 'review')).toEqual({ action: 'review', reason: "held by the program's fraud check" })
    expect(await fraudVerdict(input, () => 'allow')).toEqual({ action: 'allow', reason: null })
    await expect(fraudVerdict(input, () => 'block' as 'reject')).rejects.toThrow(TypeError)
  })
})

describe('fraud emails', () => {
  it('compares mailboxes without case or +tag, and domains as typed', () => {
    expect(mailbox(' Ann+Shop@Example.COM ')).toBe('ann@example.com')
    expect(mailbox('ann@example.com')).toBe('ann@example.com')
    expect(domainOf('bob@Mail.Example.com')).toBe('mail.example.com')
  })

  it("takes disposable domains from mailchecker's maintained list, subdomains included", async () => {
    expect(await isDisposableDomain('mailinator.com')).toBe(true)
    expect(await isDisposableDomain('inbox.mailinator.com')).toBe(true)
    expect(await isDisposableDomain('example.com')).toBe(false)
    expect(await isDisposableDomain('gmail.com')).toBe(false)
  })
})

describe('fraud rules through the program (amountAbove and disposableEmail read no storage)', () => {
  it('amountAbove compares the amount in the project currency; disposableEmail rejects a disposable domain only', async () => {
    const program = await createAffiliateProgram({
      storage: memoryStorage(),
      clock: testClock(),
      exchangeRates: (from, to) => (from === 'EUR' && to === 'USD' ? '1.10' : null),
      settings: { fraud: { amountAbove: { amount: '500.00', action: 'review' }, disposableEmail: 'reject' } },
    })
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const create = (email: string, baseValue: number, baseValueCurrency = 'USD') => program.conversions.create({ type: 'purchase', referralCode: 'ANN', email, baseValue, baseValueCurrency })
    expect((await create('a@example.com', 500)).conversion).toMatchObject({ status: 'active', reviewReason: null })
    // 455 EUR is 500.50 USD.
    expect((await create('b@example.com', 455, 'EUR')).conversion).toMatchObject({ status: 'review', reviewReason: 'amount above 500.00 USD: 500.50' })
    expect((await create('c@mailinator.com', 20)).conversion).toMatchObject({ status: 'rejected' })
    expect((await create('d@example.org', 20)).conversion.status).toBe('active')
  })
})
