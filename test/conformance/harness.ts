// The shared conformance harness: every storage adapter runs the same cases through it.
import type { AffiliateProgram, StoragePort, TestClock } from '../../src/index.js'
import type { ProjectSettingsInput } from '../../src/core/model/schemas.js'
import type { FraudCheck } from '../../src/core/rules/fraud/index.js'
import type { LinkOptions } from '../../src/core/rules/link-settings.js'

export interface AdapterUnderTest {
  /** Adapter name shown in test titles. */
  name: string
  /** A fresh, empty storage for the whole run; cleanup is called after. */
  setup(): Promise<{ storage: StoragePort; cleanup?: () => Promise<void> }>
  /** Whether the adapter supports several connections at once (real PostgreSQL only). */
  multiConnection?: boolean
  /** A written reason to skip the whole suite (for example, no DATABASE_URL). */
  skip?: string
  /** Every text the storage holds (every row's text and JSON columns; every stored object in memory), for the erasure cases. */
  storedText?(storage: StoragePort): Promise<string>
}

export interface ProgramOptions {
  settings?: ProjectSettingsInput
  exchangeRates?: (from: string, to: string) => number | string | null
  fraudCheck?: FraudCheck
  links?: LinkOptions
}

export interface CaseContext {
  adapter: AdapterUnderTest
  readonly storage: StoragePort
  /** A program serving a new project of the shared storage, with its own test clock. */
  program(options?: ProgramOptions): Promise<{ program: AffiliateProgram; clock: TestClock; storage: StoragePort }>
}
