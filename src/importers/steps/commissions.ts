// The commissions step: each commission checked (its affiliate imported, the project's currency,
// whole minor units, not negative, a date) and created as a paid or unpaid conversion with the
// reference `import:<tool>:<id>`: those without a customer in one write per chunk, the others one
// by one; an existing reference is found again, or `differs`. Then its status is settled.
import { AffiliateError } from '../../core/model/errors.js'
import { Currency } from '../../core/model/money.js'
import type { CreateConversionInput } from '../../core/model/schemas.js'
import type { ConversionView } from '../../core/rules/views.js'
import type { SourceCommission } from '../source.js'
import { settleStatus } from './commission-status.js'
import { dryRunCommission } from './dry-run-commissions.js'
import { reference, type ImportRun, type Known } from './import-run.js'
import { Notes } from './notes.js'
import type { LeftWork } from './record-chunks.js'

interface PreparedCommission {
  affiliate: Known
  /** Null for a dry run or an affiliate a dry run would create. */
  input: CreateConversionInput | null
}

/**
 * Creates a chunk's plain conversions (no customer) in one write; the others, and what it
 * leaves (existing references, affiliates not active...), are each created on their own.
 */
export async function importCommissions(run: ImportRun, records: SourceCommission[], currency: Currency): Promise<LeftWork> {
  const prepared = records.map((record) => {
    const notes = new Notes()
    try {
      return { notes, item: prepareCommission(run, record, currency, notes) }
    } catch (error) {
      // A refusal (a bad sale currency) is the record's error, reported by its attempt.
      if (!(error instanceof AffiliateError)) throw error
      return { notes, item: null, error }
    }
  })
  const inputs = prepared.map(({ item }) => item?.input ?? null)
  const bulk = inputs.flatMap((input, index) => (input && input.email === undefined ? [index] : []))
  const created = bulk.length > 0 ? await run.program.imports.createConversions(bulk.map((index) => inputs[index]!)) : []
  const done = new Map(bulk.map((index, k) => [index, created[k]!]))
  return records.map((record, index) => async () => {
    const { notes, item, error } = prepared[index]!
    notes.report()
    if (error) throw error
    if (!item) return
    const conversion = done.get(index)
    if (conversion && !(conversion instanceof AffiliateError)) return commissionCreated(run, record, item.affiliate.id!, { conversion, duplicate: false })
    return importCommission(run, record, item)
  })
}

/** The commission's checks (failures go to `notes`, reported with its outcome) and its conversion. */
function prepareCommission(run: ImportRun, record: SourceCommission, currency: Currency, notes: Notes): PreparedCommission | null {
  const { report } = run
  const affiliate = run.known.get(record.affiliateSourceId)
  const error = (field: string, message: string) => (notes.add(() => report.count('commissions', record.sourceId, 'error', { field, message })), null)
  if (!affiliate) return error('affiliate', `affiliate ${record.affiliateSourceId} was not imported`)
  if (record.currency !== null && record.currency.toUpperCase() !== currency.code) {
    return error('currency', `commission in ${record.currency}, the project's currency is ${currency.code}`)
  }
  if (!Number.isSafeInteger(record.amountMinor) || (record.saleAmountMinor !== null && !Number.isSafeInteger(record.saleAmountMinor))) {
    return error('amount', 'the amount is not a whole number of minor units (cents)')
  }
  if (record.amountMinor < 0) return error('amount', 'a negative commission (a clawback in the tool) is not imported: refund the conversion it claws back instead')
  if (Number.isNaN(record.occurredAt.getTime())) return error('date', 'the commission has no valid date')
  const amount = BigInt(record.amountMinor)
  notes.add(() => report.owe(affiliate.email, currency.code, amount, record.state !== 'voided', record.state === 'pending' || record.state === 'due'))
  if (affiliate.id === null || run.dryRun) return { affiliate, input: null }
  const saleCurrency = new Currency((record.saleCurrency ?? currency.code).toUpperCase())
  const input = {
    type: 'purchase' as const,
    affiliateId: affiliate.id,
    ...(record.customerEmail ? { email: record.customerEmail } : {}),
    value: currency.amount(amount).format(),
    baseValue: saleCurrency.amount(BigInt(record.saleAmountMinor ?? 0)).format(),
    baseValueCurrency: saleCurrency.code,
    paid: record.state === 'paid',
    reference: reference(run, record.sourceId),
    occurredAt: record.occurredAt,
  }
  return { affiliate, input }
}

async function importCommission(run: ImportRun, record: SourceCommission, { affiliate, input }: PreparedCommission) {
  if (affiliate.id === null || input === null) return dryRunCommission(run, record, affiliate)
  const result = await run.program.conversions.create(input).catch((error: unknown) => {
    if (error instanceof AffiliateError && error.code === 'conflict' && error.field === 'reference') return null
    throw error
  })
  if (result === null) {
    return run.report.count('commissions', record.sourceId, 'differs', { field: 'value', message: `conversion ${input.reference} exists with another amount, customer or affiliate` })
  }
  await commissionCreated(run, record, affiliate.id, result)
}

async function commissionCreated(run: ImportRun, record: SourceCommission, affiliateId: number, result: { conversion: ConversionView; duplicate: boolean }) {
  await settleStatus(run, record, result.conversion)
  if (result.duplicate) run.report.resume('commissions')
  if (record.state === 'paid') run.paid.set(record.sourceId, affiliateId)
  run.report.count('commissions', record.sourceId, result.duplicate ? 'existing' : 'created')
}
