// startPruning, as `affiliate-kit serve` runs it: a pass after the first delay and again after
// each interval, a log line for what went, and stop() waiting for a running pass.
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { startPruning, testClock, type Logger } from '../../src/index.js'
import { clickRow } from '../support/analytics/clicks.js'

describe('the pruning job', () => {
  it('prunes on its schedule and logs what went', async () => {
    const storage = memoryStorage()
    const clock = testClock('2026-03-01T00:00:00Z')
    const expired = (digest: string) => ({
      digest, audience: 'portal' as const, projectId: 'p', subject: 's', createdAt: clock.now(), lastSeenAt: clock.now(),
      idleExpiresAt: new Date('2026-02-01T00:00:00Z'), expiresAt: new Date('2026-02-01T00:00:00Z'),
    })
    await storage.sessions.insertSession(expired('first'))
    const lines: Array<{ message: string; fields: unknown }> = []
    const record = (message: string, fields?: unknown) => void lines.push({ message, fields })
    const logger: Logger = { debug: record, info: record, warn: record, error: record }
    const job = startPruning(storage, { clock, logger, firstAfterMs: 0, everyMs: 20 })
    await expect.poll(() => lines.length).toBe(1)
    expect(lines[0]).toEqual({ message: 'pruned 1 rows', fields: { idempotency_keys: 0, visitor_marks: 0, visitor_signals: 0, sessions: 1, delivery_attempts: 0 } })
    await storage.sessions.insertSession(expired('second'))
    await expect.poll(() => lines.length).toBe(2)
    await job.stop()
    await storage.sessions.insertSession(expired('third'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(lines).toHaveLength(2)
    expect(await storage.sessions.purgeExpired(clock.now())).toBe(1)
  })

  it('drops the raw clicks of the months before those kept (clickRetentionMonths), and logs it', async () => {
    const storage = memoryStorage()
    const clock = testClock('2026-06-10T00:00:00Z')
    const rows = ['2026-02-28T23:00:00Z', '2026-03-01T00:00:00Z', '2026-06-01T00:00:00Z'].map((at) => clickRow('UTC', { affiliateId: 1, at: new Date(at) }))
    await storage.analytics.insertClicks('p', rows)
    const lines: Array<{ message: string; fields: unknown }> = []
    const record = (message: string, fields?: unknown) => void lines.push({ message, fields })
    const logger: Logger = { debug: record, info: record, warn: record, error: record }
    const job = startPruning(storage, { clock, logger, firstAfterMs: 0, everyMs: 60_000, clickRetentionMonths: 3 })
    await expect.poll(() => lines.length).toBe(1)
    await job.stop()
    expect(lines[0]).toEqual({ message: 'dropped 1 months of link clicks', fields: { months: 1, keptMonths: 3 } })
    const read = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-07-01T00:00:00Z'), timeZone: 'Etc/GMT', projectTimeZone: 'UTC', interval: 'month' as const, groupBy: null }
    expect((await storage.analytics.clickFigures('p', read)).map(({ start, clicks }) => ({ start, clicks }))).toEqual([
      { start: '2026-03-01', clicks: 1 },
      { start: '2026-06-01', clicks: 1 },
    ])
  })
})
