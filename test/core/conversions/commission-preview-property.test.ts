// Property: for 1,000 random conversions (products, renewals in stages and by count, affiliates
// with their own rules, sub-programs, explicit values, lines of one payment, other currencies,
// settings changed midway, grandfathering), preview answers exactly what create then creates, and
// writes nothing (memory adapter; a failing seed is printed to replay).
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { createAffiliateProgram, EVENT_TYPES, testClock } from '../../../src/index.js'
import type { CreateConversionInput, ProjectSettingsInput } from '../../../src/core/model/schemas.js'
import { seededRandom, shuffled } from '../../support/providers/ledger.js'

const pct = (rate: number) => ({ type: 'percentage' as const, rate })

function settings(variant: number): ProjectSettingsInput {
  return {
    holdPeriodDays: variant % 2 === 0 ? 0 : 14,
    commission: {
      purchase: pct(30 - variant),
      recurring: variant % 3 === 0 ? { rate: 10, durationMonths: 6 } : { maxPayments: 6, stages: [{ payments: 2, rate: 40 }, { amount: '3.50' }] },
      products: { prod_starter: { purchase: pct(20) }, prod_pro: { purchase: pct(15), recurring: { rate: 12.5, maxPayments: 4 } }, prod_setup: { excluded: true } },
      grandfather: variant % 2 === 1,
    },
    subPrograms: { agency: { commission: { purchase: { type: 'fixed', amount: '9.99' }, signup: { amount: '1.00' }, products: { prod_starter: { excluded: true } } } } },
  }
}

describe('preview and create agree', () => {
  it('on 1,000 random inputs, and preview writes nothing', async () => {
    const seed = 20261126
    const random = seededRandom(seed)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
    const storage = memoryStorage()
    const clock = testClock('2026-01-01T00:00:00.000Z')
    const program = await createAffiliateProgram({ storage, clock, settings: settings(0), exchangeRates: (from) => (from === 'EUR' ? '1.0849' : null) })
    const affiliates = [
      await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' }),
      await program.affiliates.create({ email: 'max@example.com', referralCode: 'MAX', commission: { purchase: pct(50), products: { prod_pro: { purchase: pct(45) } } } }),
      await program.affiliates.create({ email: 'agency@example.com', referralCode: 'AGENCY', partnerSlug: 'agency' }),
      await program.affiliates.create({ email: 'off@example.com', referralCode: 'OFF', status: 'inactive' }),
    ]
    // Subscribed to every event, so an event preview enqueued would show as a delivery.
    await program.webhooks.create({ url: 'https://hooks.example.com/all', events: [...EVENT_TYPES] })
    const customers = shuffled(Array.from({ length: 40 }, (_, n) => `c${n}@example.com`), seed)
    const state = async () => {
      const [conversions, referrals, ...earnings] = await Promise.all([
        program.conversions.list({ limit: 1 }),
        program.referrals.list({ limit: 1 }),
        ...affiliates.map(async (affiliate) => (await program.affiliates.get(affiliate.id)).earnings),
      ])
      return JSON.stringify({ conversions: conversions.total, referrals: referrals.total, earnings, deliveries: (await program.webhooks.deliveries({ limit: 1 })).total })
    }
    let invoice = 0
    for (let n = 0; n < 1000; n += 1) {
      if (n % 250 === 249) await program.projects.updateSettings(program.projectId, settings(n % 4))
      clock.advance({ days: Math.floor(random() * 20) })
      const type = random() < 0.1 ? 'signup' : 'purchase'
      const affiliate = pick(affiliates)
      const product = pick(['prod_starter', 'prod_pro', 'prod_setup', 'prod_other', undefined])
      const customer = random() < 0.8 ? pick(customers) : undefined
      const line = random() < 0.2
      if (!line) invoice += 1
      const input: CreateConversionInput = {
        type,
        ...(customer && random() < 0.7 ? { email: customer, ...(random() < 0.5 ? {} : { referralCode: affiliate.referralCode }) } : { affiliateId: affiliate.id, ...(customer ? { email: customer } : {}) }),
        ...(type === 'purchase' ? { baseValue: (Math.floor(random() * 100_000) / 100).toFixed(2) } : {}),
        ...(type === 'purchase' && random() < 0.15 ? { baseValueCurrency: 'EUR' } : {}),
        ...(random() < 0.05 ? { value: (Math.floor(random() * 1000) / 100).toFixed(2) } : {}),
        ...(product ? { productId: product } : {}),
        ...(line ? { paymentId: `in_${invoice}` } : {}),
        reference: `ref_${n}`,
      }
      const before = await state()
      const preview = await program.conversions.preview(input).catch((error: Error) => error)
      expect(await state(), `step ${n} (seed ${seed}): preview wrote`).toBe(before)
      const created = await program.conversions.create(input).catch((error: Error) => error)
      if (preview instanceof Error || created instanceof Error) {
        // Both refuse alike (no affiliate for a new customer without a code, for instance).
        expect(created instanceof Error && preview instanceof Error && created.message === preview.message, `step ${n} (seed ${seed}): ${String(preview)} / ${String(created)}`).toBe(true)
        continue
      }
      const { conversion } = created
      expect(
        {
          affiliateId: preview.affiliateId,
          value: preview.value,
          basis: preview.basis,
          ruleSource: preview.ruleSource,
          commissionType: preview.commissionType,
          rate: preview.rate,
          amount: preview.amount,
          productId: preview.productId,
          status: preview.status,
          holdUntil: preview.holdUntil.toISOString(),
        },
        `step ${n} (seed ${seed})`,
      ).toEqual({
        affiliateId: conversion.affiliateId,
        value: conversion.value,
        basis: conversion.basis,
        ruleSource: conversion.ruleSource,
        commissionType: conversion.commissionType,
        rate: conversion.commissionRate,
        amount: conversion.commissionAmount,
        productId: conversion.productId,
        status: conversion.status,
        holdUntil: conversion.holdUntil.toISOString(),
      })
    }
    const all = await program.conversions.list({ limit: 1000 })
    // The walk reached every rule: each basis and source shows up.
    expect(new Set(all.items.map((c) => c.basis))).toEqual(new Set(['purchase', 'recurring', 'recurring_expired', 'signup', 'explicit', 'excluded']))
    expect(new Set(all.items.map((c) => c.ruleSource))).toEqual(new Set(['explicit', 'product', 'affiliate', 'sub_program', 'project']))
  }, 120_000)
})
