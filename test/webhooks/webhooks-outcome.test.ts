// What one delivery attempt leads to, decided by plain functions of src/webhooks/delivery.ts: the
// status, the next attempt's time (delay with jitter, Retry-After up to a day) and when retries end.
import { describe, expect, it } from 'vitest'
import { attemptOutcome, DEFAULT_DELAYS, nextDelayMs } from '../../src/webhooks/delivery.js'
import type { SendResult } from '../../src/webhooks/transport.js'
import type { ProjectSettings } from '../../src/core/model/types.js'

const answered = (statusCode: number | null, retryAfterMs: number | null = null): SendResult => ({
  statusCode,
  durationMs: 250,
  excerpt: null,
  error: statusCode === null ? 'timeout' : null,
  retryAfterMs,
})
const settings = { webhookRetryDelaysSeconds: [5, 60] } as ProjectSettings
const now = new Date('2026-05-01T10:00:00.000Z')

describe('a delivery attempt', () => {
  it('waits its attempt delay with +-jitter, or a longer Retry-After capped at a day', () => {
    expect(nextDelayMs([5, 60], 1, answered(500), 0.2, () => 0)).toBe(4000)
    expect(nextDelayMs([5, 60], 1, answered(500), 0.2, () => 1)).toBe(6000)
    expect(nextDelayMs([5, 60], 2, answered(503, 120_000), 0, () => 0.5)).toBe(120_000)
    expect(nextDelayMs([5, 60], 2, answered(503, 10 * 86_400_000), 0, () => 0.5)).toBe(86_400_000)
  })

  it('succeeds on 2xx; retries a failure while delays remain, counted from the end of the attempt; then fails', () => {
    expect(attemptOutcome(answered(204), 1, settings, true, false, now, 0)).toEqual({ ok: true, status: 'succeeded', nextAttemptAt: null })
    expect(attemptOutcome(answered(500), 2, settings, true, false, now, 0)).toEqual({ ok: false, status: 'pending', nextAttemptAt: new Date(now.getTime() + 250 + 60_000) })
    expect(attemptOutcome(answered(null), 3, settings, true, false, now, 0)).toMatchObject({ status: 'failed', nextAttemptAt: null })
  })

  it('never retries a test send, an inactive endpoint or a deleted project; the default delays apply without settings of its own', () => {
    expect(attemptOutcome(answered(500), 1, settings, true, true, now, 0).status).toBe('failed')
    expect(attemptOutcome(answered(500), 1, settings, false, false, now, 0).status).toBe('failed')
    expect(attemptOutcome(answered(500), 1, null, true, false, now, 0).status).toBe('failed')
    expect(attemptOutcome(answered(500), DEFAULT_DELAYS.length, {} as ProjectSettings, true, false, now, 0).status).toBe('pending')
  })
})
