// importProgram: writes what a source reads into a program through its public API only (every
// write is a program method, validated and transactional as any other caller's). Idempotent:
// affiliates are found by email (and carry `customFields.importedFrom`), link tokens as their code
// or link aliases, customers by email, coupons by code, commissions by the reference
// `import:<tool>:<id>`, payouts by their commissions; a second run, or a run after one that
// stopped half-way, creates only what is missing. See docs/migrating.md.
import { AffiliateError, ConflictError, NotFoundError } from '../core/errors.js'
import { IMPORTED_REFERENCE_PREFIX } from '../core/mail-kinds.js'
import { Currency } from '../core/money.js'
import type { AffiliateProgram, ProjectScope } from '../core/program.js'
import { CUSTOMER_ID_PREFIXES, type ProjectSettings } from '../core/types.js'
import type { CreateConversionInput } from '../core/schemas.js'
import type { AffiliateView, ConversionView } from '../core/views.js'
import { ImportReport, type ImportEntity } from './report.js'
import type { ImportSource, SourceAffiliate, SourceCommission, SourceCommissionState, SourceCoupon, SourceCustomer, SourcePayout } from './source.js'

export interface ImportOptions {
  /** Reads and compares, writes nothing; the report says what would be created. @default false */
  dryRun?: boolean
  /** Overwrites an existing affiliate's name, status and PayPal email with the tool's. @default false (reported as differing) */
  update?: boolean
  /** Called after each entity with how many records were read (the CLI's progress lines). */
  onProgress?: (entity: ImportEntity, read: number) => void
  /** Called after each record with how many were read so far, of `total` when known (the CLI's progress bar). */
  onRecord?: (entity: ImportEntity, read: number, total: number | null) => void
}

/** What each commission state becomes in the ledger (docs/migrating.md). */
const LEDGER_STATUS: Record<SourceCommissionState, 'pending' | 'active' | 'rejected'> = {
  pending: 'pending',
  due: 'active',
  paid: 'active',
  voided: 'rejected',
}

const TOKEN = /^[A-Za-z0-9_-]{3,64}$/
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/
/** Records written together (program.imports): one transaction of a few statements each. */
const CHUNK = 1000

/** An affiliate of the program, by the tool's id: its id here (null when a dry run would create it) and email. */
interface Known {
  id: number | null
  email: string
}

export async function importProgram(program: AffiliateProgram | ProjectScope, source: ImportSource, options: ImportOptions = {}): Promise<ImportReport> {
  const dryRun = options.dryRun ?? false
  const report = new ImportReport(source.name, dryRun)
  const settings = await program.settings()
  const now = () => ('clock' in program ? program.clock.now() : new Date())
  const known = new Map<string, Known>()
  const marker = (id: string) => `${source.name}:${id}`
  const reference = (id: string) => `${IMPORTED_REFERENCE_PREFIX}${source.name}:${id}`

  /**
   * Runs one record's writes; a refusal of the program (bad field, conflict) is that record's error,
   * anything else stops the import. A record another run created between the look-up and the create
   * (a unique email or code) is looked up again once, and then found.
   */
  async function attempt(entity: ImportEntity, sourceId: string, work: () => Promise<void>, again = true) {
    try {
      await work()
    } catch (error) {
      if (again && error instanceof ConflictError && (error.field === 'email' || error.field === 'code')) return attempt(entity, sourceId, work, false)
      if (!(error instanceof AffiliateError)) throw error
      report.count(entity, sourceId, 'error', { ...(error.field ? { field: error.field } : {}), message: error.message })
    }
  }

  async function findAffiliate(email: string): Promise<AffiliateView | null> {
    try {
      return await program.affiliates.get(email)
    } catch (error) {
      if (error instanceof NotFoundError) return null
      throw error
    }
  }

  /** What an affiliate record becomes; its warnings and bad link tokens go to `notes`, reported once with its outcome. */
  function prepareAffiliate(record: SourceAffiliate) {
    const notes = new Notes()
    const slug = subProgramOf(record.group, settings)
    if (record.group !== null && slug === null) {
      notes.add(() => report.warn('affiliates', record.sourceId, 'campaign', `"${record.group}" is not a sub-program of this project: the affiliate earns the project's rules`))
    }
    const tokens = linkTokens(record, notes)
    const input = {
      email: record.email,
      name: record.name,
      status: record.status,
      paypalEmail: record.paypalEmail,
      ...(record.paypalEmail ? { payoutMethod: 'paypal' as const } : {}),
      ...(slug ? { partnerSlug: slug } : {}),
      customFields: { importedFrom: marker(record.sourceId) },
    }
    return { tokens, input, notes }
  }

  /**
   * Creates a chunk of new affiliates in one write; what it leaves (existing, taken codes, bad
   * fields, a dry run) is each imported on its own. Per record: the work left, or null when done.
   */
  async function importAffiliates(records: SourceAffiliate[]): Promise<Array<(() => Promise<void>) | null>> {
    const prepared = records.map(prepareAffiliate)
    const alone = (index: number) => () => importAffiliate(records[index]!, prepared[index]!)
    if (dryRun) return records.map((_, index) => alone(index))
    const created = await program.imports.createAffiliates(prepared.map(({ tokens: [token], input }) => (token === undefined ? input : { ...input, referralCode: token })))
    return created.map((affiliate, index) => {
      if (affiliate === null || affiliate instanceof AffiliateError) return alone(index)
      const record = records[index]!
      return async () => {
        prepared[index]!.notes.report()
        known.set(record.sourceId, { id: affiliate.id, email: affiliate.email })
        report.count('affiliates', record.sourceId, 'created')
        await importLinks(record.sourceId, affiliate, prepared[index]!.tokens, true)
      }
    })
  }

  async function importAffiliate(record: SourceAffiliate, { tokens, input, notes } = prepareAffiliate(record)) {
    notes.report()
    const existing = await findAffiliate(record.email)
    if (existing) {
      known.set(record.sourceId, { id: existing.id, email: existing.email })
      if (existing.customFields?.importedFrom === marker(record.sourceId)) report.resume('affiliates')
      await importLinks(record.sourceId, existing, tokens, false)
      const wanted = { name: record.name, status: record.status, paypalEmail: record.paypalEmail?.toLowerCase() ?? null }
      const differing = (Object.keys(wanted) as (keyof typeof wanted)[]).filter((field) => existing[field] !== wanted[field])
      if (differing.length === 0) return report.count('affiliates', record.sourceId, 'existing')
      const message = differing.map((field) => `${field} is ${JSON.stringify(existing[field])}, the tool has ${JSON.stringify(wanted[field])}`).join('; ')
      if (!options.update) return report.count('affiliates', record.sourceId, 'differs', { field: differing.join(','), message })
      if (!dryRun) await program.affiliates.update(existing.id, Object.fromEntries(differing.map((field) => [field, wanted[field]])))
      return report.count('affiliates', record.sourceId, 'updated', { field: differing.join(','), message })
    }
    const [token] = tokens
    if (dryRun) {
      known.set(record.sourceId, { id: null, email: record.email.trim().toLowerCase() })
      for (const _ of tokens) report.count('links', record.sourceId, 'created')
      return report.count('affiliates', record.sourceId, 'created')
    }
    let created: AffiliateView
    try {
      created = await program.affiliates.create(token === undefined ? input : { ...input, referralCode: token })
    } catch (error) {
      if (!(token !== undefined && error instanceof AffiliateError && error.field === 'referralCode')) throw error
      // The code may be this very affiliate's, created by another run: then it is found on the next attempt.
      if (await findAffiliate(record.email)) throw new ConflictError('an affiliate with this email already exists', 'email')
      created = await program.affiliates.create(input)
    }
    known.set(record.sourceId, { id: created.id, email: created.email })
    report.count('affiliates', record.sourceId, 'created')
    await importLinks(record.sourceId, created, tokens, true)
  }

  /** The affiliate's link tokens that can be codes (3 to 64 letters, digits, _ or -), once each; the others are reported. */
  function linkTokens(record: SourceAffiliate, notes: Notes): string[] {
    const tokens = new Map<string, string>()
    for (const token of record.tokens) {
      if (!TOKEN.test(token)) {
        notes.add(() => report.count('links', record.sourceId, 'error', { field: 'token', message: `link token "${token}" is not a valid referral code (3 to 64 letters, digits, _ or -): links with it will not resolve` }))
      } else if (!tokens.has(token.toLowerCase())) tokens.set(token.toLowerCase(), token)
    }
    return [...tokens.values()]
  }

  /**
   * Keeps every link token resolving to the affiliate: its referral code, or else a link alias
   * (docs/attribution.md "Link aliases"). A token another affiliate holds is reported.
   */
  async function importLinks(sourceId: string, affiliate: AffiliateView, tokens: string[], fresh: boolean) {
    const aliases = tokens.length > 0 && dryRun ? new Set((await program.affiliates.aliases(affiliate.id)).map((alias) => alias.toLowerCase())) : null
    for (const token of tokens) {
      if (token.toLowerCase() === affiliate.referralCode.toLowerCase()) {
        report.count('links', sourceId, fresh ? 'created' : 'existing')
        continue
      }
      if (aliases) {
        report.count('links', sourceId, aliases.has(token.toLowerCase()) ? 'existing' : 'created')
        continue
      }
      try {
        const { created } = await program.affiliates.addAlias(affiliate.id, token)
        report.count('links', sourceId, created ? 'created' : 'existing')
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error
        report.count('links', sourceId, 'error', { field: 'token', message: `link token "${token}" is another affiliate's referral code or alias here: links with it keep resolving to that one` })
      }
    }
  }

  function affiliateOf(entity: ImportEntity, sourceId: string, affiliateSourceId: string): Known | null {
    const affiliate = known.get(affiliateSourceId)
    if (!affiliate) report.count(entity, sourceId, 'error', { field: 'affiliate', message: `affiliate ${affiliateSourceId} was not imported` })
    return affiliate ?? null
  }

  async function importCoupon(record: SourceCoupon) {
    const affiliate = affiliateOf('coupons', record.sourceId, record.affiliateSourceId)
    if (!affiliate) return
    const { items } = await program.coupons.list({ code: record.code, limit: 1 })
    const existing = items[0]
    if (existing) {
      if (existing.affiliateId === affiliate.id) return report.count('coupons', record.sourceId, 'existing')
      return report.count('coupons', record.sourceId, 'differs', { field: 'affiliate', message: `code ${record.code} belongs to ${existing.affiliateEmail ?? `affiliate ${existing.affiliateId}`} here` })
    }
    if (!dryRun) await program.coupons.create({ affiliateId: affiliate.id!, code: record.code, processorCouponId: record.providerCouponId })
    report.count('coupons', record.sourceId, 'created')
  }

  async function importCustomer(record: SourceCustomer) {
    if (record.email === null) return report.count('customers', record.sourceId, 'skipped', { field: 'email', message: 'a visitor without an email: nothing to import' })
    const affiliate = affiliateOf('customers', record.sourceId, record.affiliateSourceId)
    if (!affiliate) return
    const existing = await program.referrals.get(record.email.trim().toLowerCase()).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null
      throw error
    })
    if (existing && existing.affiliateId !== affiliate.id) {
      return report.count('customers', record.sourceId, 'differs', { field: 'affiliate', message: `the customer is referred by ${existing.affiliateEmail ?? 'no affiliate'} here, by ${affiliate.email} in the tool` })
    }
    const firstPurchaseAt = record.converted ? (record.firstPurchaseAt ?? null) : null
    if (!existing && !dryRun) {
      await program.referrals.create({
        email: record.email,
        affiliateId: affiliate.id!,
        status: record.converted ? 'converted' : 'pending',
        ...(firstPurchaseAt ? { firstPurchaseAt } : {}),
      })
    }
    await linkProviderCustomer(record, record.email.trim().toLowerCase())
    report.count('customers', record.sourceId, existing ? 'existing' : 'created')
  }

  /** Remembers the customer's Stripe or Paddle id, so its next invoices credit the affiliate (docs/migrating.md). */
  async function linkProviderCustomer(record: SourceCustomer, email: string) {
    const customerId = record.providerCustomerId
    if (customerId === null) return
    const provider = Object.entries(CUSTOMER_ID_PREFIXES).find(([, prefix]) => customerId.startsWith(prefix))?.[0]
    if (!provider) {
      return report.warn('customers', record.sourceId, 'providerCustomerId', `"${customerId}" is not a Stripe (cus_) or Paddle (ctm_) customer id: invoices are credited by the customer's email only`)
    }
    if (dryRun) return
    const linked = await program.providerEvents.linkCustomer(provider, customerId, email)
    if (linked.email !== email) report.warn('customers', record.sourceId, 'providerCustomerId', `${provider} customer ${customerId} is ${linked.email} here: invoices without an email are credited through that one`)
  }

  /** The paid commissions of this run, by the tool's id: their affiliate here (payouts group them). */
  const paid = new Map<string, number | null>()

  async function importPayout(record: SourcePayout) {
    const affiliate = affiliateOf('payouts', record.sourceId, record.affiliateSourceId)
    if (!affiliate) return
    const missing = record.commissionSourceIds.filter((id) => paid.get(id) !== affiliate.id)
    if (record.commissionSourceIds.length === 0 || missing.length > 0) {
      const what = missing.length > 0 ? `commissions ${missing.join(', ')} were not imported as this affiliate's paid ones` : 'it lists no commissions'
      return report.count('payouts', record.sourceId, 'skipped', { field: 'commissions', message: `${what}: the payout is not recorded (its commissions stay paid)` })
    }
    if (dryRun || affiliate.id === null) return report.count('payouts', record.sourceId, 'created')
    const { duplicate } = await program.payouts.recordPaid({ affiliateId: affiliate.id, references: record.commissionSourceIds.map(reference), paymentDate: record.paidAt })
    if (duplicate) report.resume('payouts')
    report.count('payouts', record.sourceId, duplicate ? 'existing' : 'created')
  }

  const existingConversions = new Map<number, Promise<Map<string, ConversionView>>>()
  /** An affiliate's conversions by reference (dry run only: a real run lets create find its duplicate). */
  function conversionsOf(affiliateId: number): Promise<Map<string, ConversionView>> {
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

  /** The commission's checks (failures go to `notes`, reported with its outcome) and its conversion; input null for a dry run or an affiliate a dry run would create. */
  function prepareCommission(record: SourceCommission, currency: Currency, notes: Notes): { affiliate: Known; input: CreateConversionInput | null } | null {
    const affiliate = known.get(record.affiliateSourceId)
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
    if (affiliate.id === null || dryRun) return { affiliate, input: null }
    const saleCurrency = new Currency((record.saleCurrency ?? currency.code).toUpperCase())
    const input = {
      type: 'purchase' as const,
      affiliateId: affiliate.id,
      ...(record.customerEmail ? { email: record.customerEmail } : {}),
      value: currency.amount(amount).format(),
      baseValue: saleCurrency.amount(BigInt(record.saleAmountMinor ?? 0)).format(),
      baseValueCurrency: saleCurrency.code,
      paid: record.state === 'paid',
      reference: reference(record.sourceId),
      occurredAt: record.occurredAt,
    }
    return { affiliate, input }
  }

  /**
   * Creates a chunk's plain conversions (no customer) in one write; the others, and what it
   * leaves (existing references, affiliates not active...), are each created on their own.
   */
  async function importCommissions(records: SourceCommission[], currency: Currency): Promise<Array<(() => Promise<void>) | null>> {
    const prepared = records.map((record) => {
      const notes = new Notes()
      try {
        return { notes, item: prepareCommission(record, currency, notes) }
      } catch (error) {
        // A refusal (a bad sale currency) is the record's error, reported by its attempt.
        if (!(error instanceof AffiliateError)) throw error
        return { notes, item: null, error }
      }
    })
    const inputs = prepared.map(({ item }) => item?.input ?? null)
    const bulk = inputs.flatMap((input, index) => (input && input.email === undefined ? [index] : []))
    const created = bulk.length > 0 ? await program.imports.createConversions(bulk.map((index) => inputs[index]!)) : []
    const done = new Map(bulk.map((index, k) => [index, created[k]!]))
    return records.map((record, index) => async () => {
      const { notes, item, error } = prepared[index]!
      notes.report()
      if (error) throw error
      if (!item) return
      const conversion = done.get(index)
      if (conversion && !(conversion instanceof AffiliateError)) return commissionCreated(record, item.affiliate.id!, { conversion, duplicate: false })
      return importCommission(record, item)
    })
  }

  async function importCommission(record: SourceCommission, { affiliate, input }: { affiliate: Known; input: CreateConversionInput | null }) {
    if (affiliate.id === null || input === null) return dryRunCommission(record, affiliate)
    const result = await program.conversions.create(input).catch((error: unknown) => {
      if (error instanceof AffiliateError && error.code === 'conflict' && error.field === 'reference') return null
      throw error
    })
    if (result === null) {
      return report.count('commissions', record.sourceId, 'differs', { field: 'value', message: `conversion ${input.reference} exists with another amount, customer or affiliate` })
    }
    await commissionCreated(record, affiliate.id, result)
  }

  async function commissionCreated(record: SourceCommission, affiliateId: number, result: { conversion: ConversionView; duplicate: boolean }) {
    await settleStatus(record, result.conversion)
    if (result.duplicate) report.resume('commissions')
    if (record.state === 'paid') paid.set(record.sourceId, affiliateId)
    report.count('commissions', record.sourceId, result.duplicate ? 'existing' : 'created')
  }

  /**
   * What a real run would do with the commission, told the same way: `differs` when its reference
   * exists with another amount, else the status it would end in, with the same warning.
   */
  async function dryRunCommission(record: SourceCommission, affiliate: Known) {
    if (record.state === 'paid') paid.set(record.sourceId, affiliate.id)
    const existing = affiliate.id === null ? undefined : (await conversionsOf(affiliate.id)).get(reference(record.sourceId))
    if (existing && !sameAmounts(existing, record)) {
      return report.count('commissions', record.sourceId, 'differs', { field: 'value', message: `conversion ${reference(record.sourceId)} exists with another amount, customer or affiliate` })
    }
    warnStatus(record, dryRunStatus(record, existing))
    if (existing) report.resume('commissions')
    report.count('commissions', record.sourceId, existing ? 'existing' : 'created')
  }

  /** Whether an existing conversion has the commission's amount and sale (create's duplicate check). */
  function sameAmounts(existing: ConversionView, record: SourceCommission): boolean {
    const currency = new Currency(settings.currency)
    const saleCurrency = new Currency((record.saleCurrency ?? settings.currency).toUpperCase())
    return (
      existing.value === currency.amount(BigInt(record.amountMinor)).format() &&
      existing.baseValue === saleCurrency.amount(BigInt(record.saleAmountMinor ?? 0)).format() &&
      existing.baseValueCurrency === saleCurrency.code
    )
  }

  /** The status settleStatus would leave: rejected for voided ones, else by the hold period as create sets it. */
  function dryRunStatus(record: SourceCommission, existing: ConversionView | undefined): string {
    if (LEDGER_STATUS[record.state] === 'rejected') return 'rejected'
    if (existing && existing.status !== 'review') return existing.status
    const at = now()
    const occurred = record.occurredAt.getTime() < at.getTime() ? record.occurredAt : at
    const holdUntil = existing?.holdUntil ?? new Date(occurred.getTime() + settings.holdPeriodDays * 86_400_000)
    return holdUntil.getTime() > at.getTime() ? 'pending' : 'active'
  }

  /** Warns when the conversion's status here is not the one the tool's state stands for. */
  function warnStatus(record: SourceCommission, status: string) {
    const wanted = LEDGER_STATUS[record.state]
    if (status === wanted) return
    const why = wanted === 'pending' ? `its hold ends before the tool's (holdPeriodDays ${settings.holdPeriodDays})` : `the project's hold period (${settings.holdPeriodDays} days) has not ended`
    report.warn('commissions', record.sourceId, 'status', `${record.state} in the tool, ${status} here: ${why}`)
  }

  /**
   * Brings the conversion to the state the commission has: create makes it earning (or `review`, for
   * an affiliate that is not active or a self-referral); voided ones are then rejected and earning
   * ones approved. A run stopped between the two steps finishes it on the next run.
   */
  async function settleStatus(record: SourceCommission, conversion: ConversionView) {
    const wanted = LEDGER_STATUS[record.state]
    let status = conversion.status
    if (wanted === 'rejected' && status !== 'rejected') status = await changeStatus(conversion.id, 'rejected')
    if (wanted !== 'rejected' && status === 'review') status = await changeStatus(conversion.id, 'active')
    warnStatus(record, status)
  }

  /** Changes a conversion's status; when another run made it final first, its status as it is now. */
  async function changeStatus(id: number, status: 'active' | 'rejected') {
    try {
      return (await program.conversions.update(id, { status })).status
    } catch (error) {
      if (error instanceof ConflictError) return (await program.conversions.get(id)).status
      throw error
    }
  }

  /** The ledgers of the affiliates the report names, by email, CHUNK affiliates a read. */
  async function ledgers(emails: string[]): Promise<Map<string, { total: string; unpaid: string }>> {
    const ids = new Map([...known.values()].flatMap(({ id, email }) => (id === null ? [] : [[email, id] as const])))
    const found = new Map<string, { total: string; unpaid: string }>()
    const wanted = emails.flatMap((email) => ids.get(email) ?? [])
    for (let from = 0; from < wanted.length; from += CHUNK) {
      for (const { email, total, unpaid } of (await program.imports.earnings(wanted.slice(from, from + CHUNK))).values()) found.set(email, { total, unpaid })
    }
    return found
  }

  /** Reads the records in chunks: `chunk` does what it can for a whole chunk and leaves each record's remaining work, run as its own attempt. */
  const progress = async <T>(
    entity: ImportEntity,
    records: AsyncIterable<T>,
    chunk: (records: T[]) => Promise<Array<(() => Promise<void>) | null>>,
    id: (record: T) => string,
    total: number | null = null,
  ) => {
    let read = 0
    for await (const records_ of chunks(records, CHUNK)) {
      const left = await chunk(records_)
      for (const [index, record] of records_.entries()) {
        read += 1
        const work = left[index]
        if (work) await attempt(entity, id(record), work)
        options.onRecord?.(entity, read, total)
      }
    }
    options.onProgress?.(entity, read)
  }
  /** One record at a time. */
  const each =
    <T>(work: (record: T) => Promise<void>) =>
    async (records: T[]) =>
      records.map((record) => () => work(record))

  await progress('affiliates', source.affiliates(), importAffiliates, (record) => record.sourceId)
  await progress('coupons', source.coupons(), each(importCoupon), (record) => record.sourceId)
  await progress('customers', source.customers(), each(importCustomer), (record) => record.sourceId)
  // Oldest first, so a customer's first purchase is its earliest commission (renewals keep their rule's duration).
  const commissions: SourceCommission[] = []
  for await (const record of source.commissions()) commissions.push(record)
  commissions.sort((a, b) => (a.occurredAt.getTime() || 0) - (b.occurredAt.getTime() || 0) || a.sourceId.localeCompare(b.sourceId))
  const currency = new Currency(settings.currency)
  await progress('commissions', iterate(commissions), (records) => importCommissions(records, currency), (record) => record.sourceId, commissions.length)
  if (source.payouts) await progress('payouts', source.payouts(), each(importPayout), (record) => record.sourceId)

  await report.settleTable(dryRun ? undefined : ledgers)
  return report
}

/** The project's sub-program for a campaign or group name (its name as a slug), or null. */
function subProgramOf(group: string | null, settings: ProjectSettings): string | null {
  if (group === null) return null
  const slug = group.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '')
  return SLUG.test(slug) && settings.subPrograms?.[slug] ? slug : null
}

async function* iterate<T>(items: T[]): AsyncIterable<T> {
  yield* items
}

async function* chunks<T>(records: AsyncIterable<T>, size: number): AsyncIterable<T[]> {
  let chunk: T[] = []
  for await (const record of records) {
    chunk.push(record)
    if (chunk.length === size) {
      yield chunk
      chunk = []
    }
  }
  if (chunk.length > 0) yield chunk
}

/** Report lines of a record prepared with its chunk, written when its outcome is (the report keeps record order), once. */
class Notes {
  private lines: Array<() => void> = []
  add(line: () => void): void {
    this.lines.push(line)
  }
  report(): void {
    for (const line of this.lines.splice(0)) line()
  }
}
