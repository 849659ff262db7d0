// The lock on a PGlite data directory, seen by library users: a second opener in this process or
// another is refused with the holder's pid; a holder that is gone (dead pid, reused pid, this very
// pid after a container restart) is taken over; close releases. The CLI's own processes are in
// cli-lock.test.ts.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { DataDirLockedError, pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { LOCK_FILE } from '../../../src/adapters/pglite/data-dir-lock.js'
import { createAffiliateProgram } from '../../../src/index.js'
import { tempDirs } from '../../support/cli/temp-dirs.js'
import { migratedDataDir } from '../../support/pglite-template.js'

// Migrated directories (the template's copies): the opens here are about the lock, not the migrations.
const tempDirOf = tempDirs('affiliate-kit-lock')
const tempDir = () => migratedDataDir(tempDirOf())

const read = (path: string) => readFileSync(path, 'utf8').trim()
const bootId = () => read('/proc/sys/kernel/random/boot_id')
const startOf = (pid: number) => read(`/proc/${pid}/stat`).split(') ').at(-1)!.split(' ')[19]!

function writeLock(dataDir: string, holder: { pid: number; host?: string; boot?: string | null; start?: string | null; thread?: number }) {
  writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ host: hostname(), boot: bootId(), start: null, thread: threadId, token: 'left-behind', ...holder }))
}

async function opensAndKeeps(dataDir: string, email: string) {
  const storage = pgliteStorage({ dataDir })
  const program = await createAffiliateProgram({ storage })
  await program.affiliates.create({ email })
  expect((await program.affiliates.list()).items.map((affiliate) => affiliate.email)).toContain(email)
  await program.close()
}

describe('pgliteStorage({ dataDir }) lock', () => {
  it('refuses a second storage on the directory in this process until the first is closed', async () => {
    const dataDir = tempDir()
    const first = pgliteStorage({ dataDir })
    const program = await createAffiliateProgram({ storage: first })
    await program.affiliates.create({ email: 'first@example.com' })
    expect(() => pgliteStorage({ dataDir })).toThrow(DataDirLockedError)
    expect(() => pgliteStorage({ dataDir })).toThrow(`in use by this process`)
    await program.close()
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false)
    await opensAndKeeps(dataDir, 'second@example.com')
  })

  it('refuses while another live process holds it, naming its pid, and takes over once it is killed', async () => {
    const dataDir = tempDir()
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      writeLock(dataDir, { pid: holder.pid!, start: startOf(holder.pid!) })
      let error: unknown
      try {
        pgliteStorage({ dataDir })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(DataDirLockedError)
      expect((error as DataDirLockedError).pid).toBe(holder.pid)
      expect((error as Error).message).toBe(`data directory ${dataDir} is in use by process ${holder.pid}; only one process may open it at a time`)
    } finally {
      holder.kill('SIGKILL')
      await new Promise((resolve) => holder.once('exit', resolve))
    }
    await opensAndKeeps(dataDir, 'after-kill@example.com')
  })

  it('takes over a lock whose pid now belongs to another process (pid reuse: other start time)', async () => {
    const dataDir = tempDir()
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      writeLock(dataDir, { pid: unrelated.pid!, start: '1' })
      await opensAndKeeps(dataDir, 'reused@example.com')
    } finally {
      unrelated.kill('SIGKILL')
    }
  })

  it('takes over a lock left with its own pid by an earlier run (a container restart: always pid 1)', async () => {
    const dataDir = tempDir()
    writeLock(dataDir, { pid: process.pid, start: '1' })
    await opensAndKeeps(dataDir, 'restart@example.com')
    // Without a start time (no /proc), this process's own open locks decide.
    writeLock(dataDir, { pid: process.pid, start: null })
    await opensAndKeeps(dataDir, 'restart-again@example.com')
  })

  it("refuses a lock of another thread of this process (each worker thread has its own storages)", () => {
    const dataDir = tempDir()
    writeLock(dataDir, { pid: process.pid, start: startOf(process.pid), thread: threadId + 1 })
    expect(() => pgliteStorage({ dataDir })).toThrow('in use by this process')
  })

  it('takes over a lock from before the last boot and an unreadable lock file', async () => {
    const beforeBoot = tempDir()
    writeLock(beforeBoot, { pid: process.ppid, boot: 'another-boot' })
    await opensAndKeeps(beforeBoot, 'boot@example.com')
    const garbled = tempDir()
    writeFileSync(join(garbled, LOCK_FILE), '{"pid": 12')
    await opensAndKeeps(garbled, 'garbled@example.com')
  })

  it('refuses a lock held on another host (its process cannot be checked from here)', () => {
    const dataDir = tempDir()
    writeLock(dataDir, { pid: 4242, host: 'other-host' })
    expect(() => pgliteStorage({ dataDir })).toThrow(`in use by process 4242 on host other-host`)
  })

  it('locks nothing for in-memory databases: two open at once in one process', async () => {
    // Each is a whole in-memory initdb (seconds): one of each spelling of "in memory" is enough.
    const storages = [pgliteStorage(), pgliteStorage({ dataDir: 'memory://' })]
    await Promise.all(storages.map((storage) => storage.close()))
  })
})
