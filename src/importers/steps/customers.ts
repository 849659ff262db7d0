// The customers step: each referred customer found by email (`differs` when another affiliate
// has it here) or created as its affiliate's referral, with its first purchase; its Stripe or
// Paddle customer id linked, so that its next invoices credit the affiliate (docs/migrating.md).
import { NotFoundError } from '../../core/model/errors.js'
import { CUSTOMER_ID_PREFIXES } from '../../core/model/types.js'
import type { SourceCustomer } from '../source.js'
import { affiliateOf, type ImportRun } from './import-run.js'

export async function importCustomer(run: ImportRun, record: SourceCustomer): Promise<void> {
  const { program, report } = run
  if (record.email === null) return report.count('customers', record.sourceId, 'skipped', { field: 'email', message: 'a visitor without an email: nothing to import' })
  const affiliate = affiliateOf(run, 'customers', record.sourceId, record.affiliateSourceId)
  if (!affiliate) return
  const existing = await program.referrals.get(record.email.trim().toLowerCase()).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null
    throw error
  })
  if (existing && existing.affiliateId !== affiliate.id) {
    return report.count('customers', record.sourceId, 'differs', { field: 'affiliate', message: `the customer is referred by ${existing.affiliateEmail ?? 'no affiliate'} here, by ${affiliate.email} in the tool` })
  }
  const firstPurchaseAt = record.converted ? (record.firstPurchaseAt ?? null) : null
  if (!existing && !run.dryRun) {
    await program.referrals.create({
      email: record.email,
      affiliateId: affiliate.id!,
      status: record.converted ? 'converted' : 'pending',
      ...(firstPurchaseAt ? { firstPurchaseAt } : {}),
    })
  }
  await linkProviderCustomer(run, record, record.email.trim().toLowerCase())
  report.count('customers', record.sourceId, existing ? 'existing' : 'created')
}

/** Remembers the customer's Stripe or Paddle id, so its next invoices credit the affiliate (docs/migrating.md). */
async function linkProviderCustomer({ program, report, dryRun }: ImportRun, record: SourceCustomer, email: string) {
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
