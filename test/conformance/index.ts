// runStorageConformance: the same behavioural cases against any storage adapter. Each case gets
// its own project (and test clock) on one storage per adapter run, so cases never see each
// other's rows: tenancy isolation is itself part of what is being tested.
import { afterAll, beforeAll, describe } from 'vitest'
import { createAffiliateProgram, testClock, type StoragePort } from '../../src/index.js'
import type { AdapterUnderTest, CaseContext } from './harness.js'
import { affiliateCases } from './affiliates.case.js'
import { applicationCases } from './applications.case.js'
import { conversionCases } from './conversions.case.js'
import { couponCases } from './coupons.case.js'
import { incentiveCases } from './incentives.case.js'
import { entityTableCases } from './entity-table.case.js'
import { commissionCases } from './commission.case.js'
import { commissionRuleCases } from './commission-rules.case.js'
import { commissionScenarioCases } from './commission-scenario.case.js'
import { statusCases } from './status.case.js'
import { payoutCases } from './payouts.case.js'
import { payoutsDueCases } from './payouts-due.case.js'
import { providerPayoutCases } from './provider-payouts.case.js'
import { tenancyCases } from './tenancy.case.js'
import { validationCases } from './validation.case.js'
import { ledgerPropertyCases } from './ledger-property.case.js'
import { ledgerAsOfCases } from './ledger-as-of.case.js'
import { storagePortCases } from './storage-port.case.js'
import { webhookOutboxCases } from './webhook-outbox.case.js'
import { retentionCases } from './retention.case.js'
import { idempotencyCases } from './idempotency.case.js'
import { providerCases } from './providers.case.js'
import { providerEventCases } from './provider-events.case.js'
import { trackingCases } from './tracking.case.js'
import { personalDataCases } from './personal-data.case.js'
import { linkAliasCases } from './link-aliases.case.js'
import { linkCases } from './links.case.js'
import { importedHistoryCases } from './imported-history.case.js'
import { fraudCases } from './fraud.case.js'
import { tiersBonusesCases } from './tiers-bonuses.case.js'
import { bulkImportCases } from './bulk-import.case.js'
import { consoleAuditCases } from './console-audit.case.js'
import { csvImportCases } from './csv-import.case.js'
import { embedCases } from './embed.case.js'
import { leadRewardCases } from './lead-rewards.case.js'
import { analyticsStoreCases } from './analytics-store.case.js'
import { analyticsPropertyCases } from './analytics-property.case.js'

export type { AdapterUnderTest } from './harness.js'

let projectCounter = 0

export function runStorageConformance(adapter: AdapterUnderTest): void {
  const suite = adapter.skip ? describe.skip : describe
  suite(`storage conformance: ${adapter.name}${adapter.skip ? ` (skipped: ${adapter.skip})` : ''}`, () => {
    let storage: StoragePort
    let cleanup: (() => Promise<void>) | undefined

    beforeAll(async () => {
      const made = await adapter.setup()
      storage = made.storage
      cleanup = made.cleanup
    })
    afterAll(async () => {
      await cleanup?.()
    })

    const context: CaseContext = {
      adapter,
      get storage() {
        return storage
      },
      async program(options = {}) {
        const clock = testClock()
        projectCounter += 1
        const program = await createAffiliateProgram({
          storage,
          clock,
          project: `case-${process.pid}-${Date.now()}-${projectCounter}`,
          ...(options.settings ? { settings: options.settings } : {}),
          ...(options.exchangeRates ? { exchangeRates: options.exchangeRates } : {}),
          ...(options.fraudCheck ? { fraudCheck: options.fraudCheck } : {}),
          ...(options.links ? { links: options.links } : {}),
        })
        return { program, clock, storage }
      },
    }

    affiliateCases(context)
    applicationCases(context)
    conversionCases(context)
    couponCases(context)
    incentiveCases(context)
    commissionCases(context)
    commissionRuleCases(context)
    commissionScenarioCases(context)
    statusCases(context)
    payoutCases(context)
    payoutsDueCases(context)
    providerPayoutCases(context)
    tenancyCases(context)
    validationCases(context)
    ledgerPropertyCases(context)
    ledgerAsOfCases(context)
    storagePortCases(context)
    entityTableCases(context)
    webhookOutboxCases(context)
    retentionCases(context)
    idempotencyCases(context)
    providerEventCases(context)
    providerCases(context)
    trackingCases(context)
    personalDataCases(context)
    linkAliasCases(context)
    linkCases(context)
    importedHistoryCases(context)
    fraudCases(context)
    tiersBonusesCases(context)
    bulkImportCases(context)
    consoleAuditCases(context)
    csvImportCases(context)
    embedCases(context)
    leadRewardCases(context)
    analyticsStoreCases(context)
    analyticsPropertyCases(context)
  })
}
