// The import report: counts per entity, one line per record that was not simply created (existing,
// differing, skipped, refused, or needing a look), and a table per affiliate of what the tool says
// it owes, beside the ledger after the import, for the owner to compare with the tool's dashboard.
import { Currency } from '../core/model/money.js'

/** links: an affiliate's link tokens (its referral code or link aliases); payouts: the tool's paid payouts. */
export type ImportEntity = 'affiliates' | 'links' | 'coupons' | 'customers' | 'commissions' | 'payouts'
export const IMPORT_ENTITIES: readonly ImportEntity[] = ['affiliates', 'links', 'coupons', 'customers', 'commissions', 'payouts']

/**
 * created: written (or would be, in a dry run); existing: already there, nothing written (imported
 * by an earlier run, or present before); differs: present with other values, not overwritten
 * (unless `update`); skipped: nothing to import; error: refused, the message names the field.
 */
export type ImportOutcome = 'created' | 'existing' | 'differs' | 'updated' | 'skipped' | 'error'

export interface ImportRecordLine {
  entity: ImportEntity
  sourceId: string
  outcome: ImportOutcome | 'warning'
  field?: string
  message: string
}

export interface AffiliateTotalsLine {
  email: string
  commissions: number
  currency: string
  /** From the tool: every commission but voided ones. */
  total: string
  /** From the tool: pending and due commissions. */
  unpaid: string
  /** The ledger after the import (absent in a dry run). */
  ledgerTotal?: string
  ledgerUnpaid?: string
}

export interface ImportReportData {
  source: string
  dryRun: boolean
  counts: Record<ImportEntity, Record<ImportOutcome, number>>
  /**
   * Of the existing records, those an earlier run of this import wrote (a second run, or one after
   * a run that stopped half-way): affiliates by their `importedFrom`, commissions by their
   * reference, payouts by their commissions.
   */
  resumed: Record<ImportEntity, number>
  records: ImportRecordLine[]
  affiliates: AffiliateTotalsLine[]
}

const zeroCounts = (): Record<ImportOutcome, number> => ({ created: 0, existing: 0, differs: 0, updated: 0, skipped: 0, error: 0 })

export class ImportReport {
  readonly counts = Object.fromEntries(IMPORT_ENTITIES.map((entity) => [entity, zeroCounts()])) as ImportReportData['counts']
  readonly resumed = Object.fromEntries(IMPORT_ENTITIES.map((entity) => [entity, 0])) as ImportReportData['resumed']
  readonly records: ImportRecordLine[] = []
  /** Per affiliate email: count and minor-unit sums from the tool, per currency. */
  private readonly owed = new Map<string, { currency: string; commissions: number; total: bigint; unpaid: bigint }>()
  affiliates: AffiliateTotalsLine[] = []

  constructor(
    readonly source: string,
    readonly dryRun: boolean,
  ) {}

  count(entity: ImportEntity, sourceId: string, outcome: ImportOutcome, detail?: { field?: string; message: string }) {
    this.counts[entity][outcome] += 1
    if (outcome !== 'created' && detail) this.records.push({ entity, sourceId, outcome, ...detail })
  }

  /** Notes that an existing record was written by an earlier run of this import. */
  resume(entity: ImportEntity) {
    this.resumed[entity] += 1
  }

  warn(entity: ImportEntity, sourceId: string, field: string, message: string) {
    this.records.push({ entity, sourceId, outcome: 'warning', field, message })
  }

  /** Adds a commission the tool lists to its affiliate's line. */
  owe(email: string, currency: string, amountMinor: bigint, earning: boolean, unpaid: boolean) {
    const line = this.owed.get(email) ?? { currency, commissions: 0, total: 0n, unpaid: 0n }
    line.commissions += 1
    if (earning) line.total += amountMinor
    if (unpaid) line.unpaid += amountMinor
    this.owed.set(email, line)
  }

  /** The per-affiliate table from what the tool owes; `ledger` adds each affiliate's balances after the import. */
  async settleTable(ledger?: (emails: string[]) => Promise<Map<string, { total: string; unpaid: string }>>) {
    const lines: AffiliateTotalsLine[] = []
    const ledgers = ledger ? await ledger([...this.owed.keys()]) : new Map<string, { total: string; unpaid: string }>()
    for (const [email, owed] of [...this.owed].sort(([a], [b]) => a.localeCompare(b))) {
      const currency = new Currency(owed.currency)
      const line: AffiliateTotalsLine = {
        email,
        commissions: owed.commissions,
        currency: owed.currency,
        total: currency.amount(owed.total).format(),
        unpaid: currency.amount(owed.unpaid).format(),
      }
      const balances = ledgers.get(email)
      if (balances) Object.assign(line, { ledgerTotal: balances.total, ledgerUnpaid: balances.unpaid })
      lines.push(line)
    }
    this.affiliates = lines
  }

  get errors(): number {
    return IMPORT_ENTITIES.reduce((sum, entity) => sum + this.counts[entity].error, 0)
  }

  toJSON(): ImportReportData {
    return { source: this.source, dryRun: this.dryRun, counts: this.counts, resumed: this.resumed, records: this.records, affiliates: this.affiliates }
  }

  /** The summary printed at the end: counts per entity, the records to look at, the table per affiliate. */
  summaryLines(): string[] {
    const verb = this.dryRun ? 'would create' : 'created'
    const lines = IMPORT_ENTITIES.map((entity) => {
      const c = this.counts[entity]
      const resumed = this.resumed[entity] > 0 ? ` (${this.resumed[entity]} of them resumed from an earlier run)` : ''
      return `${entity}: ${c.created} ${verb}, ${c.existing} existing${resumed}, ${c.differs} differ, ${c.updated} updated, ${c.skipped} skipped, ${c.error} errors`
    })
    for (const record of this.records) {
      lines.push(`${record.outcome} ${record.entity} ${record.sourceId}${record.field ? ` ${record.field}` : ''}: ${record.message}`)
    }
    if (this.affiliates.length > 0) {
      const ledger = !this.dryRun
      lines.push(['email', 'commissions', 'total', 'unpaid', ...(ledger ? ['ledger total', 'ledger unpaid'] : [])].join('\t'))
      for (const line of this.affiliates) {
        const money = (amount: string | undefined) => `${amount ?? '-'} ${line.currency}`
        lines.push(
          [line.email, line.commissions, money(line.total), money(line.unpaid), ...(ledger ? [money(line.ledgerTotal), money(line.ledgerUnpaid)] : [])].join('\t'),
        )
      }
    }
    return lines
  }
}
