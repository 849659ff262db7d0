// The shared conformance harness: every storage adapter runs the same cases through it.
import type { AffiliateProgram, StoragePort } from '../../src/index.js'
import type { TestClock } from '../../src/core/clock.js'
import type { ProjectSettingsInput } from '../../src/core/schemas.js'

export interface AdapterUnderTest {
  /** Adapter name shown in test titles. */
  name: string
  /** A fresh, empty storage for one test file (or test); cleanup is called after. */
  setup(): Promise<{ storage: StoragePort; cleanup?: () => Promise<void> }>
  /** Whether the adapter supports several connections at once (real PostgreSQL only). */
  multiConnection?: boolean
  /** A written reason to skip the whole suite (for example, no DATABASE_URL). */
  skip?: string
}

export interface CaseContext {
  adapter: AdapterUnderTest
  /** A program over a fresh storage, with a test clock; closed after the test. */
  program(options?: { settings?: ProjectSettingsInput; exchangeRates?: (from: string, to: string) => number | null }): Promise<{
    program: AffiliateProgram
    clock: TestClock
    storage: StoragePort
  }>
}
