// A commission in a dry run, told as a real run would tell it: `differs` when its reference exists
// with another amount, else the status it would end in, with the same warning. A dry run writes
// nothing, so it reads the affiliate's conversions instead of letting create find the duplicate.
import { Currency } from '../../core/model/money.js'
import type { ConversionView } from '../../core/rules/views.js'
import type { SourceCommission } from '../source.js'
import { dryRunStatus, warnStatus } from './commission-status.js'
import { reference, type ImportRun, type Known } from './import-run.js'

export async function dryRunCommission(run: ImportRun, record: SourceCommission, affiliate: Known): Promise<void> {
  const { report } = run
  if (record.state === 'paid') run.paid.set(record.sourceId, affiliate.id)
  const existing = affiliate.id === null ? undefined : (await conversionsOf(run, affiliate.id)).get(reference(run, record.sourceId))
  if (existing && !sameAmounts(run, existing, record)) {
    return report.count('commissions', record.sourceId, 'differs', { field: 'value', message: `conversion ${reference(run, record.sourceId)} exists with another amount, customer or affiliate` })
  }
  warnStatus(run, record, dryRunStatus(run, record, existing))
  if (existing) report.resume('commissions')
  report.count('commissions', record.sourceId, existing ? 'existing' : 'created')
}

/** An affiliate's conversions by reference, read once per run. */
function conversionsOf({ program, existingConversions }: ImportRun, affiliateId: number): Promise<Map<string, ConversionView>> {
  let loading = existingConversions.get(affiliateId)
  if (!loading) {
    loading = (async () => {
      const found = new Map<string, ConversionView>()
      for (let offset = 0; ; offset += 100) {
        const page = await program.conversions.list({ affiliateId, limit: 100, offset })
        for (const conversion of page.items) if (conversion.reference) found.set(conversion.reference, conversion)
        if (offset + page.items.length >= page.total || page.items.length === 0) return found
      }
    })()
    existingConversions.set(affiliateId, loading)
  }
  return loading
}

/** Whether an existing conversion has the commission's amount and sale (create's duplicate check). */
function sameAmounts({ settings }: ImportRun, existing: ConversionView, record: SourceCommission): boolean {
  const currency = new Currency(settings.currency)
  const saleCurrency = new Currency((record.saleCurrency ?? settings.currency).toUpperCase())
  return (
    existing.value === currency.amount(BigInt(record.amountMinor)).format() &&
    existing.baseValue === saleCurrency.amount(BigInt(record.saleAmountMinor ?? 0)).format() &&
    existing.baseValueCurrency === saleCurrency.code
  )
}
