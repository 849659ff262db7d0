// Tax details (docs/tax-details.md): legal name, country, W-9 or W-8BEN, and the tax id, which is
// stored only encrypted (tax-id-cipher.ts) and shown only by its last four characters, except in
// the year-end totals (`summary`). Re-encrypting under the current key is `reencrypt`.
import { findAffiliate, type AffiliateRef } from './affiliates.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, ValidationError } from '../model/errors.js'
import { Currency } from '../model/money.js'
import { taxDetailsInput, validate, type TaxDetailsInput } from '../model/schemas.js'
import type { StorageTx } from '../ports/storage.js'
import type { TaxIdCipher } from '../model/tax-id-cipher.js'
import type { Affiliate, StoredTaxDetails, TaxFormType } from '../model/types.js'

/** Tax details as every page and export but the year-end totals shows them. */
export interface TaxDetailsView {
  legalName: string
  country: string
  formType: TaxFormType
  /** `****6789` */
  taxIdMasked: string
  updatedAt: Date
}

export function maskedTaxId(last4: string): string {
  return `****${last4}`
}

export function taxDetailsView(stored: StoredTaxDetails | null): TaxDetailsView | null {
  if (!stored) return null
  return { legalName: stored.legalName, country: stored.country, formType: stored.formType, taxIdMasked: maskedTaxId(stored.taxIdLast4), updatedAt: new Date(stored.updatedAt) }
}

/** What binds a ciphertext to its row: copied to another affiliate, it does not decrypt. */
const cipherContext = (affiliate: Pick<Affiliate, 'projectId' | 'id'>) => `${affiliate.projectId}:${affiliate.id}`

/** One affiliate's row of the year-end totals. */
export interface TaxSummaryRow {
  affiliateId: number
  email: string
  legalName: string | null
  country: string | null
  formType: TaxFormType | null
  /** In full: the one place it is shown so. */
  taxId: string | null
  totalPaid: string
  payouts: number
  currency: string
}

function requireCipher(cipher: TaxIdCipher | null): TaxIdCipher {
  if (!cipher) throw new ConflictError('tax ids cannot be stored or read: no tax id encryption key is configured (program option taxIdKeys, or AFFILIATE_KIT_TAX_ID_KEYS for the server)')
  return cipher
}

export function taxDetailsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  /** Every affiliate of the project holding tax details, a page at a time. */
  async function* withTaxDetails(tx: StorageTx): AsyncGenerator<Affiliate> {
    for (let offset = 0; ; offset += 100) {
      const page = await tx.affiliates.list(projectId, { limit: 100, offset })
      for (const affiliate of page.items) if (affiliate.taxDetails) yield affiliate
      if (offset + 100 >= page.total) return
    }
  }

  return {
    async get(ref: AffiliateRef): Promise<TaxDetailsView | null> {
      return taxDetailsView((await findAffiliate(storage, projectId, ref)).taxDetails)
    },

    async set(ref: AffiliateRef, input: TaxDetailsInput): Promise<TaxDetailsView> {
      const data = validate(taxDetailsInput, input)
      if (data.formType === 'W-9' && data.country !== 'US') throw new ValidationError('formType', 'a W-9 is for US persons: choose W-8BEN outside the US')
      if (data.formType === 'W-8BEN' && data.country === 'US') throw new ValidationError('formType', 'a W-8BEN is for persons outside the US: choose W-9 in the US')
      if (data.formType === 'W-9' && !/^\d{9}$/.test(data.taxId)) throw new ValidationError('taxId', 'a US tax id (SSN or EIN) has 9 digits')
      const cipher = requireCipher(ctx.taxIds)
      return storage.transaction(async (tx) => {
        const affiliate = await findAffiliate(tx, projectId, ref)
        const taxDetails: StoredTaxDetails = {
          legalName: data.legalName,
          country: data.country,
          formType: data.formType,
          taxId: cipher.encrypt(data.taxId, cipherContext(affiliate)),
          taxIdLast4: data.taxId.slice(-4),
          updatedAt: ctx.clock.now().toISOString(),
        }
        await tx.affiliates.update(projectId, affiliate.id, { taxDetails })
        return taxDetailsView(taxDetails)!
      })
    },

    /**
     * Re-encrypts every tax id of the project not under the current key, in one transaction: a
     * ciphertext no configured key opens fails it, and nothing is changed.
     */
    async reencrypt(): Promise<{ reencrypted: number; unchanged: number }> {
      const cipher = requireCipher(ctx.taxIds)
      return storage.transaction(async (tx) => {
        let reencrypted = 0
        let unchanged = 0
        for await (const affiliate of withTaxDetails(tx)) {
          const stored = affiliate.taxDetails!
          const context = cipherContext(affiliate)
          const plain = cipher.decrypt(stored.taxId, context)
          if (cipher.keyIdOf(stored.taxId) === cipher.currentKeyId) {
            unchanged += 1
            continue
          }
          await tx.affiliates.update(projectId, affiliate.id, { taxDetails: { ...stored, taxId: cipher.encrypt(plain, context) } })
          reencrypted += 1
        }
        return { reencrypted, unchanged }
      })
    },

    /** Per affiliate paid in `year` (UTC): its payouts' total and count, with its tax details, the tax id in full. */
    async summary(year: number): Promise<TaxSummaryRow[]> {
      if (!Number.isSafeInteger(year) || year < 2000 || year > 9999) throw new ValidationError('year', 'year must be a four-digit year from 2000')
      const { settings } = await ctx.project()
      const currency = new Currency(settings.currency)
      return storage.transaction(async (tx) => {
        const totals = await tx.payouts.paidTotals(projectId, new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year + 1, 0, 1)))
        const rows: TaxSummaryRow[] = []
        for (const total of totals) {
          const affiliate = await tx.affiliates.get(projectId, total.affiliateId)
          if (!affiliate) continue
          const stored = affiliate.taxDetails
          rows.push({
            affiliateId: affiliate.id,
            email: affiliate.email,
            legalName: stored?.legalName ?? null,
            country: stored?.country ?? null,
            formType: stored?.formType ?? null,
            taxId: stored ? requireCipher(ctx.taxIds).decrypt(stored.taxId, cipherContext(affiliate)) : null,
            totalPaid: currency.amount(total.amount).format(),
            payouts: total.count,
            currency: currency.code,
          })
        }
        return rows
      })
    },
  }
}
