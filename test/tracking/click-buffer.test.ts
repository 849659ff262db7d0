// The click buffer (docs/analytics.md "The click path"): batches, its bounds, what it does while
// the database fails, and close.
import { describe, expect, it } from 'vitest'
import { createClickBuffer } from '../../src/tracking/click-buffer.js'
import type { ClickOutcome, ClickVisit } from '../../src/core/affiliates/click-flush.js'
import { clickRow } from '../support/analytics/clicks.js'

/** A visit the buffer only carries: a click row's fields (campaign and the rest unknown) with its visitor. */
function visit(id: string): ClickVisit {
  const { hour: _hour, newVisitor: _newVisitor, ...fields } = clickRow('UTC', { id, affiliateId: 1, at: new Date() })
  return { ...fields, visitor: `visitor-${id}` }
}

/** A recorder that keeps the batches it was given and fails while `failing` says so. */
function recorder() {
  const batches: string[][] = []
  const state = { failing: false }
  const record = async (visits: readonly ClickVisit[]): Promise<ClickOutcome[]> => {
    if (state.failing) throw new Error('database unavailable')
    batches.push(visits.map((one) => one.id))
    return visits.map(() => ({ counted: true, newVisitor: true }))
  }
  return { batches, state, record }
}

describe('the click buffer', () => {
  it('without an interval, writes the clicks of one turn in one batch and answers after it', async () => {
    const { batches, record } = recorder()
    const buffer = createClickBuffer(record)
    expect(buffer.waits).toBe(true)
    const outcomes = await Promise.all(['a', 'b', 'c'].map((id) => buffer.add(visit(id))))
    expect(outcomes).toEqual([{ counted: true, newVisitor: true }, { counted: true, newVisitor: true }, { counted: true, newVisitor: true }])
    expect(batches).toEqual([['a', 'b', 'c']])
  })

  it('without an interval, a failed write fails the visits of its batch', async () => {
    const { state, record } = recorder()
    state.failing = true
    const buffer = createClickBuffer(record)
    await expect(buffer.add(visit('a'))).rejects.toThrow('database unavailable')
  })

  it('with an interval, writes every maxBatch clicks at once and the rest on close', async () => {
    const { batches, record } = recorder()
    const buffer = createClickBuffer(record, { flushMilliseconds: 60_000, maxBatch: 2 })
    expect(buffer.waits).toBe(false)
    const added = ['a', 'b', 'c'].map((id) => buffer.add(visit(id)))
    await added[1]
    expect(batches).toEqual([['a', 'b']])
    await buffer.close()
    await added[2]
    expect(batches).toEqual([['a', 'b'], ['c']])
  })

  it('with an interval, keeps the clicks while the database fails and writes them once it answers', async () => {
    const { batches, state, record } = recorder()
    state.failing = true
    const buffer = createClickBuffer(record, { flushMilliseconds: 10 })
    const added = buffer.add(visit('a'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(batches).toEqual([])
    state.failing = false
    expect(await added).toEqual({ counted: true, newVisitor: true })
    expect(batches).toEqual([['a']])
    await buffer.close()
  })

  it('drops what does not fit, and says how many', async () => {
    const { state, record } = recorder()
    state.failing = true
    const buffer = createClickBuffer(record, { flushMilliseconds: 60_000, maxBuffered: 2 })
    void buffer.add(visit('a')).catch(() => undefined)
    void buffer.add(visit('b')).catch(() => undefined)
    expect(await buffer.add(visit('c'))).toEqual({ counted: false, newVisitor: false })
    expect(buffer.dropped).toBe(1)
  })

  it('refuses bad bounds', () => {
    expect(() => createClickBuffer(recorder().record, { maxBatch: 0 })).toThrow('clicks.maxBatch must be a positive integer')
    expect(() => createClickBuffer(recorder().record, { flushMilliseconds: -1 })).toThrow('clicks.flushMilliseconds must be a non-negative integer')
  })
})
