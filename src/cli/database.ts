// --database (or DATABASE_URL): where the standalone server keeps its data. Omitted: embedded
// PGlite persisted in ./affiliate-data; `memory`; or a postgres:// URL, through a pooler in
// transaction mode with AFFILIATE_KIT_POOLER=transaction (docs/pooler.md). Adapters load lazily, so
// `pg` is needed only for PostgreSQL. Failing to open or reach the database is one CliError line.
import { resolve } from 'node:path'
import { createAffiliateProgram, type AffiliateProgram, type AffiliateProgramOptions } from '../core/program.js'
import type { ProjectSettingsInput } from '../core/model/schemas.js'
import type { StoragePort } from '../adapters/storage-port.js'
import type { OptionValues } from './command.js'
import { CliError, redactUrl } from './errors.js'
import { parseTaxIdKeys, taxIdCipher, type TaxIdKeys } from '../core/model/tax-id-cipher.js'
import { SchemaTooNewError } from '../adapters/sql/migrations.js'
import { StorageFullError, StorageUnavailableError } from '../core/model/errors.js'
import type { SqlStorageOptions } from '../adapters/sql/storage.js'
import type { DiskSpaceGuard, DiskSpaceStatus } from '../adapters/pglite/disk-space.js'

export const DEFAULT_DATA_DIR = './affiliate-data'

/** --database, else a non-empty DATABASE_URL, else undefined (embedded PGlite). */
export function databaseTarget(flag: string | undefined): { target: string | undefined; source: string } {
  if (flag) return { target: flag, source: '--database' }
  if (process.env.DATABASE_URL) return { target: process.env.DATABASE_URL, source: 'DATABASE_URL' }
  return { target: undefined, source: 'default' }
}

interface Opened {
  storage: StoragePort
  description: string
  /** The embedded PGlite directory, when that is the storage. */
  dataDir?: string
  /** The free space of its disk, checked before writes. */
  diskSpace?: DiskSpaceGuard
  /** Turns a failure of the first queries into a line naming the database. */
  explain: (error: unknown) => unknown
}

/**
 * `sql` options (such as onMigrated) go to the PGlite and PostgreSQL adapters; `onDiskSpace` is
 * told when PGlite's writes start and stop being refused for want of disk space.
 */
export async function openStorage(target: string | undefined, sql: SqlStorageOptions = {}, onDiskSpace?: (status: DiskSpaceStatus) => void): Promise<Opened> {
  if (target === undefined || target.startsWith('file:') || target.startsWith('pglite:')) {
    const dataDir = resolve(target?.replace(/^(file|pglite):(\/\/)?/, '') || DEFAULT_DATA_DIR)
    const minFreeBytes = minFreeMegabytes()
    const { pgliteStorage, diskSpaceGuard } = await import('../adapters/pglite/index.js')
    const diskSpace = diskSpaceGuard(dataDir, { ...(minFreeBytes !== undefined ? { minFreeBytes } : {}), ...(onDiskSpace ? { onChange: onDiskSpace } : {}) })
    // A start that must write (migrations) on a full disk: one line saying what to do.
    const explain = (error: unknown) =>
      error instanceof StorageFullError ? new CliError(`${error.message}; free space there, or lower AFFILIATE_KIT_MIN_FREE_MB (now ${Math.floor(diskSpace.status().minFreeBytes / 1048576)})`) : error
    return { storage: pgliteStorage({ ...sql, dataDir, diskSpace }), description: `embedded PGlite in ${dataDir}`, dataDir, diskSpace, explain }
  }
  if (target === 'memory') {
    const { memoryStorage } = await import('../adapters/memory/index.js')
    return { storage: memoryStorage(), description: 'memory (nothing is kept after exit)', explain: (error) => error }
  }
  if (/^postgres(ql)?:\/\//.test(target)) return openPostgres(target, sql)
  throw new CliError(`--database must be memory, a postgres:// URL or pglite:<dir>; got "${redactUrl(target)}"`)
}

async function openPostgres(target: string, sql: SqlStorageOptions): Promise<Opened> {
  if (!URL.canParse(target)) {
    throw new CliError(`the database URL ${redactUrl(target)} is malformed; percent-encode special characters in the user and password (@ as %40, : as %3A, / as %2F, # as %23)`)
  }
  const url = new URL(target)
  // The adapter loads pg on first use; the CLI asks for it up front, in one line.
  try {
    await import('pg')
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && /'pg'/.test((error as Error).message)) {
      throw new CliError('PostgreSQL needs the pg package beside affiliate-kit: run "npm i pg"')
    }
    throw error
  }
  const { postgresStorage } = await import('../adapters/postgres/index.js')
  const pooled = poolerMode()
  const where = `PostgreSQL at ${url.host}${pooled ? ' through a transaction-mode pooler' : ''}`
  const storage = postgresStorage({ ...sql, connectionString: target, ...(pooled ? { pooler: 'transaction' as const } : {}), ...postgresTimeouts() })
  return { storage, description: where, explain: (error) => postgresError(error, url, where) }
}

/** AFFILIATE_KIT_MIN_FREE_MB: the free space under which embedded PGlite refuses writes (0: never); unset, 32. */
function minFreeMegabytes(): number | undefined {
  const value = process.env.AFFILIATE_KIT_MIN_FREE_MB?.trim()
  if (!value) return undefined
  if (!/^\d{1,7}$/.test(value)) throw new CliError(`AFFILIATE_KIT_MIN_FREE_MB must be a whole number of megabytes (0: never refuse writes); got "${process.env.AFFILIATE_KIT_MIN_FREE_MB}"`)
  return Number(value) * 1024 * 1024
}

/** The bounded waits from the environment (docs/operations.md#faults); unset: the storage's defaults. */
function postgresTimeouts(): { statementTimeoutMs?: number; lockTimeoutMs?: number; connectionTimeoutMs?: number } {
  const read = (name: string): number | undefined => {
    const value = process.env[name]?.trim()
    if (!value) return undefined
    if (!/^\d{1,9}$/.test(value)) throw new CliError(`${name} must be a whole number of milliseconds (0 turns the timeout off); got "${process.env[name]}"`)
    return Number(value)
  }
  const statement = read('AFFILIATE_KIT_STATEMENT_TIMEOUT_MS')
  const lock = read('AFFILIATE_KIT_LOCK_TIMEOUT_MS')
  const checkout = read('AFFILIATE_KIT_POOL_TIMEOUT_MS')
  return {
    ...(statement !== undefined ? { statementTimeoutMs: statement } : {}),
    ...(lock !== undefined ? { lockTimeoutMs: lock } : {}),
    ...(checkout !== undefined ? { connectionTimeoutMs: checkout } : {}),
  }
}

/** AFFILIATE_KIT_POOLER: `transaction` when the URL leads to a pooler in transaction mode; empty or unset otherwise. */
function poolerMode(): boolean {
  const value = process.env.AFFILIATE_KIT_POOLER?.trim().toLowerCase()
  if (!value) return false
  if (value === 'transaction') return true
  throw new CliError(`AFFILIATE_KIT_POOLER must be "transaction" (the database URL leads to a pooler in transaction mode) or unset; got "${process.env.AFFILIATE_KIT_POOLER}"`)
}

/** pg's connection and login failures, as what to fix; any other failure to open, named. */
function postgresError(error: unknown, url: URL, where: string): unknown {
  if (error instanceof SchemaTooNewError) return error
  // The storage names an unreachable database StorageUnavailableError; pg's own error is its cause.
  const { code, message } = (error instanceof StorageUnavailableError && error.cause ? error.cause : error) as { code?: string; message?: string }
  const database = decodeURIComponent(url.pathname.slice(1)) || 'postgres'
  if (code === 'ECONNREFUSED') return new CliError(`cannot connect to ${where}: connection refused; is PostgreSQL running, and are the host and port in the URL right?`)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new CliError(`cannot connect to ${where}: unknown host "${url.hostname}"; fix the host in the URL`)
  if (code === 'ETIMEDOUT') return new CliError(`cannot connect to ${where}: timed out; check the host, the port and the network`)
  if (code === '3D000') return new CliError(`${where}: database "${database}" does not exist; create it (createdb ${database}) or fix the URL`)
  if (code === '28000' || code === '28P01') return new CliError(`${where}: ${message}; fix the user or password in the URL`)
  if (code === '42501') return new CliError(`${where}: ${message}; the user needs rights to create the affiliate_kit schema and its tables`)
  return new CliError(`${where}: ${String(message ?? error).split('\n')[0]}`)
}

/** Opens the storage and the program on it (running migrations); closes the storage on failure. */
export async function openProgram(
  target: string | undefined,
  options: {
    /** Replace the stored settings (absent: the stored ones stay). */
    settings?: ProjectSettingsInput
    /** Told when `settings` replaced different stored ones. */
    onSettingsReplaced?: AffiliateProgramOptions['onSettingsReplaced']
    /** The config's rates (cli/exchange-rates.ts), for payments in other currencies. */
    exchangeRates?: AffiliateProgramOptions['exchangeRates']
    /** Affiliates' promotion codes at Stripe (the config's providers.stripe.secretKey). */
    promotionCodes?: AffiliateProgramOptions['promotionCodes']
    /** Where links are reached and may send visitors (cli/link-options.ts, from the config's tracking). */
    links?: AffiliateProgramOptions['links']
    sql?: SqlStorageOptions
    onDiskSpace?: (status: DiskSpaceStatus) => void
  } = {},
): Promise<{ program: AffiliateProgram; storage: StoragePort; description: string; dataDir?: string; diskSpace?: DiskSpaceGuard }> {
  const { storage, description, dataDir, diskSpace, explain } = await openStorage(target, options.sql, options.onDiskSpace)
  try {
    const program = await createAffiliateProgram({
      storage,
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.onSettingsReplaced ? { onSettingsReplaced: options.onSettingsReplaced } : {}),
      ...(options.exchangeRates ? { exchangeRates: options.exchangeRates } : {}),
      ...(options.promotionCodes ? { promotionCodes: options.promotionCodes } : {}),
      ...(options.links ? { links: options.links } : {}),
      // docs/tax-details.md: the current key first, then the earlier ones.
      ...(process.env.AFFILIATE_KIT_TAX_ID_KEYS ? { taxIdKeys: environmentTaxIdKeys(process.env.AFFILIATE_KIT_TAX_ID_KEYS) } : {}),
    })
    return { program, storage, description, ...(dataDir ? { dataDir } : {}), ...(diskSpace ? { diskSpace } : {}) }
  } catch (error) {
    await storage.close().catch(() => {})
    throw explain(error)
  }
}

/** AFFILIATE_KIT_TAX_ID_KEYS read and checked (the message names a key's id, never its bytes). */
function environmentTaxIdKeys(text: string): TaxIdKeys {
  try {
    const keys = parseTaxIdKeys(text)
    taxIdCipher(keys)
    return keys
  } catch (error) {
    throw new CliError(`AFFILIATE_KIT_TAX_ID_KEYS: ${(error as Error).message}`)
  }
}

/** The --database line of every command's help. */
export const DATABASE_HELP = '  --database <db>    memory, postgres://..., or pglite:<dir>   env DATABASE_URL, default pglite:./affiliate-data'

/**
 * Runs fn on the program of --database / DATABASE_URL (and its storage), closing it afterwards.
 * `exchangeRates`: the rates of a --config file (the stored settings stay as they are).
 */
export async function withProgram<T>(
  values: OptionValues,
  fn: (program: AffiliateProgram, storage: StoragePort) => Promise<T>,
  options: { exchangeRates?: AffiliateProgramOptions['exchangeRates'] } = {},
): Promise<T> {
  const { program, storage } = await openProgram(databaseTarget(values.database as string | undefined).target, options)
  try {
    return await fn(program, storage)
  } finally {
    await program.close()
  }
}
