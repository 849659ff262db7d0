// The free space of the disk under an embedded PGlite database, checked before writes. PGlite
// meeting ENOSPC mid-write does not fail the statement: the engine spins (measured: 60-80 % CPU,
// the event loop blocked, reads, /healthz and SIGTERM unanswered, nothing freed brings it back).
// So writes are refused while the disk has less than `minFreeBytes` free, before they start;
// reads go on. The free space is read again at most once per second, and before every write once
// under twice the minimum (fs.statfs: microseconds), so a burst cannot run past the margin unseen.
import { statfsSync } from 'node:fs'
import { StorageFullError } from '../../core/model/errors.js'

/**
 * 32 MiB: a WAL segment PGlite may create in one go (16 MiB; measured, ENOSPC came at 12 MB free
 * while creating one) and room for the writes in flight. A fresh database takes about 40 MB.
 */
export const DEFAULT_MIN_FREE_BYTES = 32 * 1024 * 1024

const RECHECK_MS = 1000

export interface DiskSpaceStatus {
  /** The directory whose disk is watched. */
  path: string
  freeBytes: number
  minFreeBytes: number
  /** Writes are being refused (under minFreeBytes free). */
  low: boolean
  /** Under twice minFreeBytes free: writes will soon be refused. */
  short: boolean
  /** Writes refused since the start. */
  refused: number
}

export interface DiskSpaceGuard {
  /** Throws StorageFullError while the disk is short of space. */
  checkWrite(): void
  /** The last reading (read afresh when older than a second). */
  status(): DiskSpaceStatus
}

/**
 * Watches the disk of `path`. `onChange` is told when writes start and stop being refused (the
 * server logs it). `minFreeBytes: 0` never refuses.
 */
export function diskSpaceGuard(path: string, options: { minFreeBytes?: number; onChange?: (status: DiskSpaceStatus) => void } = {}): DiskSpaceGuard {
  const minFreeBytes = options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES
  const state: DiskSpaceStatus = { path, freeBytes: Number.POSITIVE_INFINITY, minFreeBytes, low: false, short: false, refused: 0 }
  let readAt = Number.NEGATIVE_INFINITY
  const read = (): DiskSpaceStatus => {
    const now = performance.now()
    if (now - readAt < RECHECK_MS && !(state.short && !state.low)) return state
    readAt = now
    try {
      const stats = statfsSync(path)
      state.freeBytes = Number(stats.bavail) * Number(stats.bsize)
    } catch {
      // An unreadable file system is not a reason to refuse writes: PGlite reports its own errors.
      state.freeBytes = Number.POSITIVE_INFINITY
    }
    const low = state.freeBytes < minFreeBytes
    state.short = state.freeBytes < 2 * minFreeBytes
    if (low !== state.low) {
      state.low = low
      options.onChange?.({ ...state })
    }
    return state
  }
  return {
    checkWrite() {
      if (!read().low) return
      state.refused += 1
      const mb = (bytes: number) => `${Math.floor(bytes / 1048576)} MB`
      throw new StorageFullError(`the disk of the database (${path}) has ${mb(state.freeBytes)} free, under the ${mb(minFreeBytes)} it keeps for writes: writes are refused until space is freed`)
    },
    status: () => ({ ...read() }),
  }
}

/** Statements that do not write: reads, savepoints, settings. A SELECT that locks rows or takes a sequence's next value writes. */
const READ = /^\s*(SELECT|WITH|SAVEPOINT|RELEASE|ROLLBACK|SET|SHOW|BEGIN|COMMIT|VALUES)\b/i
const WRITES_INSIDE = /\b(INSERT|UPDATE|DELETE|MERGE|nextval|setval)\b|\bFOR\s+(NO\s+KEY\s+)?UPDATE\b|\bFOR\s+(KEY\s+)?SHARE\b/i

/** True when the statement may write to the database. */
export function writesData(text: string): boolean {
  return !READ.test(text) || WRITES_INSIDE.test(text)
}
