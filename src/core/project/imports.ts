// Bulk writes for an import (docs/migrating.md "Speed"): a chunk of affiliates, or of conversions,
// in one transaction of a few statements rather than one transaction each. Only the plain cases
// are written here, exactly as create would write them; any other item is left (null) for the
// caller to create on its own with affiliates.create or conversions.create, which then answers
// it as for any caller (an existing email or reference, a conflict, review, a referred user...).
import { addDays } from '../model/clock.js'
import type { ProjectContext } from '../rules/context.js'
import { newConversion } from '../model/entities.js'
import { AffiliateError } from '../model/errors.js'
import { ledgerDelta } from '../rules/ledger.js'
import { Currency } from '../model/money.js'
import { newReferralCode } from '../model/random.js'
import { createAffiliateInput, createConversionInput, validate, type CreateAffiliateInput, type CreateConversionInput } from '../model/schemas.js'
import type { ConversionCounts, Insert } from '../ports/storage.js'
import type { Affiliate, Conversion } from '../model/types.js'
import { affiliateView, conversionView, type AffiliateView, type ConversionView } from '../rules/views.js'
import { createdAffiliateRow } from '../affiliates/affiliates.js'

/** Per item: what was created, the refusal of an invalid item, or null (create it on its own). */
export type BulkResult<T> = T | AffiliateError | null

/** What a conversion of the bulk path may carry: anything else needs create's full plan. */
const PLAIN_CONVERSION = new Set(['type', 'affiliateId', 'value', 'baseValue', 'baseValueCurrency', 'paid', 'reference', 'occurredAt'])

function validated<T>(parse: () => T): T | AffiliateError {
  try {
    return parse()
  } catch (error) {
    if (error instanceof AffiliateError) return error
    throw error
  }
}

export function importsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  return {
    /**
     * The total and unpaid earnings (docs/ledger.md "Balances") of these affiliates, by id, read in
     * one query: what an import compares with the tool's dashboard. Absent ids are left out.
     */
    async earnings(ids: readonly number[]): Promise<Map<number, { email: string; total: string; unpaid: string }>> {
      const currency = new Currency((await ctx.project()).settings.currency)
      const affiliates = await storage.affiliates.all(projectId, { ids })
      return new Map(
        affiliates.map(({ id, email, totals }) => {
          // unpaid = total - paid, paid counting credit: no need of the held part here.
          const unpaid = totals.countedValue - totals.paidValue - totals.credit
          return [id, { email, total: currency.amount(totals.countedValue).format(), unpaid: currency.amount(unpaid).format() }]
        }),
      )
    },

    /**
     * Creates the affiliates whose email and referral code are free, in one transaction: as
     * affiliates.create would. Null for one whose email or code is taken (also by an earlier item),
     * or with a parent (multi-tier): create those on their own.
     */
    async createAffiliates(inputs: readonly CreateAffiliateInput[]): Promise<Array<BulkResult<AffiliateView>>> {
      const project = await ctx.project()
      const now = ctx.clock.now()
      const results: Array<BulkResult<AffiliateView>> = inputs.map(() => null)
      const seen = new Set<string>()
      const rows: Array<{ index: number; row: Insert<Affiliate> }> = []
      inputs.forEach((input, index) => {
        const data = validated(() => validate(createAffiliateInput, input))
        if (data instanceof AffiliateError) return (results[index] = data)
        if (data.parentAffiliateId !== undefined || data.parentReferralCode !== undefined) return
        if (data.partnerSlug && !project.settings.subPrograms?.[data.partnerSlug]) return
        // Its own commission rules are checked against the currency by create.
        if (data.commission) return
        const code = data.referralCode ?? newReferralCode()
        const keys = [`email ${data.email}`, `code ${code.toLowerCase()}`]
        if (keys.some((key) => seen.has(key))) return
        for (const key of keys) seen.add(key)
        const row = createdAffiliateRow(projectId, data, null, now)
        rows.push({ index, row: { ...row, referralCode: code } })
      })
      if (rows.length === 0) return results
      await storage.transaction(async (tx) => {
        // A code that is another affiliate's link alias is refused by create: left to it.
        const taken = await tx.affiliates.takenCodes(projectId, rows.map(({ row }) => row.referralCode))
        const free = rows.filter(({ row }) => !taken.has(row.referralCode.toLowerCase()))
        const inserted = await tx.affiliates.insertMany(free.map(({ row }) => row))
        free.forEach(({ index }, k) => {
          const affiliate = inserted[k]
          if (affiliate) results[index] = affiliateView(affiliate, { amount: 0n, nextReleaseAt: null }, project.settings)
        })
      })
      return results
    },

    /**
     * Creates conversions credited by `affiliateId` with an explicit `value`, a `reference` and
     * nothing else of a customer, in one transaction: as conversions.create would (totals and
     * daily counters included). Null for any other conversion, an affiliate that is not active or
     * absent, a reference already used, a base value in another currency, a multi-tier project,
     * or a project with an active webhook endpoint (create records the events): create those on their own.
     */
    async createConversions(inputs: readonly CreateConversionInput[]): Promise<Array<BulkResult<ConversionView>>> {
      const project = await ctx.project()
      const { settings } = project
      const currency = new Currency(settings.currency)
      const now = ctx.clock.now()
      const results: Array<BulkResult<ConversionView>> = inputs.map(() => null)
      const plain: Array<{ index: number; data: ReturnType<typeof parse> }> = []
      const parse = (input: CreateConversionInput) => {
        const data = validate(createConversionInput, input)
        const baseCurrency = data.baseValueCurrency === undefined ? currency : new Currency(data.baseValueCurrency)
        return { data, baseCurrency, baseValue: data.baseValue === undefined ? null : baseCurrency.parse(data.baseValue, 'baseValue'), value: data.value === undefined ? null : currency.parse(data.value, 'value') }
      }
      inputs.forEach((input, index) => {
        const parsed = validated(() => parse(input))
        if (parsed instanceof AffiliateError) return (results[index] = parsed)
        const { data } = parsed
        const isPlain = Object.keys(data).every((key) => PLAIN_CONVERSION.has(key))
        if (isPlain && data.type === 'purchase' && data.affiliateId !== undefined && data.reference !== undefined && parsed.value !== null && parsed.baseValue !== null && parsed.baseCurrency.code === currency.code) {
          plain.push({ index, data: parsed })
        }
      })
      if (plain.length === 0 || settings.multiTier?.enabled) return results
      await storage.transaction(async (tx) => {
        if ((await tx.webhookEndpoints.all(projectId, {})).some((endpoint) => endpoint.active)) return
        const affiliates = new Map((await tx.affiliates.all(projectId, { ids: [...new Set(plain.map(({ data }) => data.data.affiliateId!))] })).map((affiliate) => [affiliate.id, affiliate]))
        const items: Array<{ index: number; conversion: Insert<Conversion>; counts: ConversionCounts }> = []
        const recordedAt = ctx.clock.now()
        for (const { index, data: request } of plain) {
          const { data, baseValue, value } = request
          const affiliate = affiliates.get(data.affiliateId!)
          if (affiliate?.status !== 'active') continue
          const at = data.occurredAt !== undefined && data.occurredAt.getTime() < now.getTime() ? data.occurredAt : now
          const conversion = newConversion<Insert<Conversion>>({
            projectId,
            affiliateId: affiliate.id,
            type: 'purchase',
            value: value!.minor,
            baseValue: baseValue!.minor,
            baseCurrency: currency.code,
            refundedBaseValue: 0n,
            paid: data.paid ?? false,
            status: 'active',
            holdUntil: addDays(at, settings.holdPeriodDays),
            reference: data.reference!,
            // As create's plan: its duplicate check compares this.
            fingerprint: ['purchase', baseValue!.minor, currency.code, value!.minor, affiliate.id].join('|'),
            basis: 'explicit',
            commissionType: 'fixed',
            tier: 1,
            ruleSource: 'explicit',
            commissionAmount: value!.format(),
            createdAt: at,
          })
          const daily = { commission: conversion.value, purchases: 1, revenue: baseValue!.minor }
          items.push({ index, conversion, counts: { totals: ledgerDelta(null, conversion), day: ctx.dayIn(project, at), daily, ledgerAt: recordedAt } })
        }
        const inserted = await tx.conversions.insertMany(items)
        items.forEach(({ index }, k) => {
          const conversion = inserted[k]
          if (conversion) results[index] = conversionView(conversion, currency, now)
        })
      })
      return results
    },
  }
}
