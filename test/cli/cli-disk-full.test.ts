// Embedded PGlite on a disk that fills up (issue 51), as an operator meets it: `serve` on a small
// tmpfs of its own (CI runs as root; elsewhere the test says why it cannot run). PGlite that
// meets ENOSPC mid-write stops answering altogether, so writes are refused before they start
// while the disk has less than AFFILIATE_KIT_MIN_FREE_MB free: 507 with Retry-After naming the
// disk, while reads, /healthz and /readyz keep answering; a log line and /metrics say so; writes
// resume once space is freed; SIGTERM stops the server throughout.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { api, run, runToEnd } from '../support/cli/process.js'
import { parsePrometheus, sampleValue } from '../support/ops/prometheus.js'

const KEY = `rgk_${'Disk0Full1Key2'.repeat(3)}xyz`
const MB = 1024 * 1024
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-disk-'))
const volume = join(dir, 'volume')

/** Mounts a 100 MB tmpfs for the data (root only); the reason it cannot, otherwise. */
function mountVolume(): string | null {
  try {
    execFileSync('mkdir', ['-p', volume])
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=100m', 'tmpfs', volume], { stdio: 'pipe' })
    return null
  } catch (error) {
    return `cannot mount a tmpfs (needs root, as in CI): ${String((error as Error).message).split('\n')[0]}`
  }
}
const cannot = mountVolume()
afterAll(() => {
  if (!cannot) execFileSync('umount', ['-l', volume])
  rmSync(dir, { recursive: true, force: true })
})

const free = () => {
  const stats = statfsSync(volume)
  return stats.bavail * stats.bsize
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(cannot !== null)(`serve on embedded PGlite whose disk fills up${cannot ? ` (skipped: ${cannot})` : ''}`, () => {
  it('refuses writes with 507 naming the disk, keeps answering reads and health, logs and counts it, resumes when space is freed, and stops on SIGTERM', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ metrics: true }))
    const server = run(['serve', '--port', '0', '--database', `pglite:${join(volume, 'data')}`, '--config', 'config.json'], {
      cwd: dir,
      env: { AFFILIATE_KIT_API_KEY: KEY, AFFILIATE_KIT_MIN_FREE_MB: '32' },
    })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    const root = url!.replace(/\/api\/v1$/, '')
    // A fresh database takes about 40 MB of the 100: under twice the 32 MB kept, the start warns.
    expect(server.output()).toMatch(/WARN {2}low disk space: \d+ MB free for the database in \S+; writes are refused under 32 MB/)
    expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })).status).toBe(201)
    const purchase = (n: number) => api(url!, KEY, 'POST', '/conversions', { type: 'purchase', referral_code: 'ANN', email: `buyer${n}@example.com`, base_value: 10, reference: `ch_${n}` })
    expect((await purchase(1)).status).toBe(201)

    // Fill the disk up to 20 MB free: writes are refused within the second the free space is re-read.
    const ballast = join(volume, 'ballast')
    writeFileSync(ballast, Buffer.alloc(Math.max(0, free() - 20 * MB)))
    await sleep(1100)
    const started = performance.now()
    const refused = await fetch(`${url}/conversions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'purchase', referral_code: 'ANN', email: 'buyer2@example.com', base_value: 10, reference: 'ch_2' }),
    })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(refused.status).toBe(507)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    const body = (await refused.json()) as { success: boolean; error: string }
    expect(body.success).toBe(false)
    expect(body.error).toContain(`the disk of the database (${join(volume, 'data')}) has`)
    expect(body.error).toContain('nothing was saved')
    // Reads and health go on.
    expect((await api(url!, KEY, 'GET', '/affiliates/ann@example.com')).status).toBe(200)
    expect((await fetch(`${root}/healthz`)).status).toBe(200)
    expect((await fetch(`${root}/readyz`)).status).toBe(200)
    await server.waitFor(/ERROR disk full: \d+ MB free for the database in \S+, under 32 MB; writes are refused \(507\) until space is freed/, 5000)
    const metrics = parsePrometheus(await (await fetch(`${root}/metrics`)).text())
    expect(sampleValue(metrics, 'affiliate_kit_storage_disk_writes_refused')).toBe(1)
    expect(sampleValue(metrics, 'affiliate_kit_storage_disk_space_low')).toBe(1)
    expect(sampleValue(metrics, 'affiliate_kit_storage_disk_refused_writes_total')).toBeGreaterThanOrEqual(1)
    expect(sampleValue(metrics, 'affiliate_kit_storage_disk_free_bytes')).toBeLessThan(32 * MB)

    // Space freed: writes resume by themselves, and the refused one was never stored.
    rmSync(ballast)
    await sleep(1100)
    expect((await purchase(3)).status).toBe(201)
    await server.waitFor(/INFO {2}disk space freed: \d+ MB free for the database in \S+; writes resume/, 5000)
    const listed = await api(url!, KEY, 'GET', '/conversions?limit=10')
    expect((listed.body!.data as { reference: string }[]).map((conversion) => conversion.reference).sort()).toEqual(['ch_1', 'ch_3'])

    // Full again, then SIGTERM: the server stops (with its data intact for the next start).
    writeFileSync(ballast, Buffer.alloc(Math.max(0, free() - 20 * MB)))
    await sleep(1100)
    expect((await purchase(4)).status).toBe(507)
    const stopping = performance.now()
    expect(await server.stop()).toBe(0)
    expect(performance.now() - stopping).toBeLessThan(10_000)
    rmSync(ballast)
    const again = run(['serve', '--port', '0', '--database', `pglite:${join(volume, 'data')}`], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, second] = await again.waitFor(/listening on (http:\/\/\S+)/)
    const kept = await api(second!, KEY, 'GET', '/conversions?limit=10')
    expect((kept.body!.data as { reference: string }[]).map((conversion) => conversion.reference).sort()).toEqual(['ch_1', 'ch_3'])
    expect(await again.stop()).toBe(0)
  }, 120_000)

  it('stops a start that must write (its migrations) on a disk short of space with one line saying what to do', async () => {
    // Room for a fresh database (about 40 MB) but not for the 40 MB kept free after it.
    const ballast = join(volume, 'ballast-start')
    writeFileSync(ballast, Buffer.alloc(Math.max(0, free() - 60 * MB)))
    try {
      const start = await runToEnd(['serve', '--port', '0', '--database', `pglite:${join(volume, 'fresh')}`], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY, AFFILIATE_KIT_MIN_FREE_MB: '40' } })
      expect(start.code).toBe(1)
      expect(start.output).toMatch(
        new RegExp(`affiliate-kit: the disk of the database \\(${join(volume, 'fresh')}\\) has \\d+ MB free, under the 40 MB it keeps for writes: writes are refused until space is freed; free space there, or lower AFFILIATE_KIT_MIN_FREE_MB \\(now 40\\)$`),
      )
    } finally {
      rmSync(ballast)
    }
  }, 60_000)
})

describe('fault settings from the environment', () => {
  it('refuses a malformed timeout or free-space minimum with one line naming the variable, before opening anything', async () => {
    const pg = await runToEnd(['serve', '--port', '0', '--database', 'postgres://nobody@127.0.0.1:1/none'], { cwd: dir, env: { AFFILIATE_KIT_LOCK_TIMEOUT_MS: '5s' } })
    expect(pg.code).toBe(1)
    expect(pg.output).toBe('affiliate-kit: AFFILIATE_KIT_LOCK_TIMEOUT_MS must be a whole number of milliseconds (0 turns the timeout off); got "5s"')
    const pglite = await runToEnd(['serve', '--port', '0', '--database', `pglite:${join(dir, 'settings-data')}`], { cwd: dir, env: { AFFILIATE_KIT_MIN_FREE_MB: '-1' } })
    expect(pglite.code).toBe(1)
    expect(pglite.output).toBe('affiliate-kit: AFFILIATE_KIT_MIN_FREE_MB must be a whole number of megabytes (0: never refuse writes); got "-1"')
  }, 60_000)
})
