// The exclusive lock on a PGlite data directory: PGlite has no server process guarding its files,
// so two processes (or two instances in one process) opening one directory corrupt it. The lock
// is a file in the directory naming its holder; it is released on close and on process exit, and
// a lock whose holder is gone (kill -9, a crash, a restarted container) is taken over.
import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { threadId } from 'node:worker_threads'

export const LOCK_FILE = 'affiliate-kit.lock'

/** Thrown when another process, or another storage in this process, has the directory open. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError'
  readonly code = 'data_dir_locked'
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly host: string,
  ) {
    const where = host === hostname() ? '' : ` on host ${host}`
    const who = pid === process.pid && where === '' ? 'this process (another storage on it is still open)' : `process ${pid}${where}`
    super(`data directory ${dataDir} is in use by ${who}; only one process may open it at a time`)
  }
}

interface Holder {
  pid: number
  host: string
  /** Kernel boot id and process start time (Linux): tell a reused pid from the holder. */
  boot: string | null
  start: string | null
  /** The worker thread (0: main) holding it; each thread has its own `held` map. */
  thread: number
  token: string
}

/** Locks held by this process: lock file path -> token. */
const held = new Map<string, string>()

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

const bootId = () => readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null
/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); the name field may hold spaces. */
const startTime = (pid: number) => readText(`/proc/${pid}/stat`)?.split(') ').at(-1)?.split(' ')[19] ?? null

function readHolder(path: string): Holder | null {
  const text = readText(path)
  if (text === null) return null
  try {
    return JSON.parse(text) as Holder
  } catch {
    return { pid: 0, host: hostname(), boot: null, start: null, thread: 0, token: '' } // not ours to read: treat as dead
  }
}

function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true // another machine or container: we cannot tell, so it holds
  if (holder.boot && holder.boot !== bootId()) return false
  if (holder.pid === process.pid) return isThisProcess(holder)
  if (!(holder.pid > 0)) return false
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
  }
  const start = startTime(holder.pid)
  return !(holder.start && start && start !== holder.start)
}

/** Our own pid: this process, or an earlier one with the same pid (pid 1 after a container restart). */
function isThisProcess(holder: Holder): boolean {
  const start = startTime(process.pid)
  if (holder.start && start && holder.start !== start) return false
  return holder.thread !== threadId || [...held.values()].includes(holder.token)
}

/** Creates the lock file with its content in one step (a link), so no reader sees it half written. */
function tryCreate(path: string, holder: Holder): boolean {
  const draft = `${path}.${holder.token}`
  writeFileSync(draft, JSON.stringify(holder), { mode: 0o600 })
  try {
    linkSync(draft, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    rmSync(draft, { force: true })
  }
}

/**
 * Moves a dead holder's lock aside, unless another opener did so first: renaming is atomic, so of
 * two openers judging the same stale lock only one moves it, and the other finds the winner's lock.
 */
function removeStale(path: string, stale: Holder, token: string): void {
  const aside = `${path}.stale-${token}`
  try {
    renameSync(path, aside)
  } catch {
    return
  }
  const moved = readHolder(aside)
  if (moved && moved.token !== stale.token) {
    try {
      linkSync(aside, path) // a live lock replaced the stale one meanwhile: put it back
    } catch {}
  }
  rmSync(aside, { force: true })
}

let exitHook = false

/** Takes the lock on dataDir (creating the directory); the returned function releases it. */
export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, LOCK_FILE)
  const holder: Holder = { pid: process.pid, host: hostname(), boot: bootId(), start: startTime(process.pid), thread: threadId, token: randomBytes(12).toString('hex') }
  for (let attempt = 0; ; attempt += 1) {
    if (tryCreate(path, holder)) break
    const current = readHolder(path)
    if (current === null) continue // released between our two calls
    if (isAlive(current) || attempt >= 5) throw new DataDirLockedError(dir, current.pid, current.host)
    removeStale(path, current, holder.token)
  }
  held.set(path, holder.token)
  if (!exitHook) {
    exitHook = true
    process.on('exit', () => {
      for (const [lock, token] of held) release(lock, token)
    })
  }
  return () => release(path, holder.token)
}

function release(path: string, token: string): void {
  if (held.get(path) !== token) return
  held.delete(path)
  if (readHolder(path)?.token === token) rmSync(path, { force: true })
}
