// The admin console's actions and their audit entries commit together (docs/admin.md "Audit
// log"): an action writes its change and exactly one entry, and when the entry cannot be written,
// or the change fails after the console's reads, neither is kept. The failures come from a thin
// wrapper around the adapter under test that throws at one write inside the transaction.
import { describe, expect, it } from 'vitest'
import { createAdminConsole } from '../../src/admin/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type StoragePort } from '../../src/index.js'
import type { StorageTx } from '../../src/core/ports/storage.js'
import { Agent } from '../support/portal/helpers.js'
import type { CaseContext } from './harness.js'

/** Which write of a transaction throws: an audit entry, or the change's event (written after its row); `after` such writes succeed first. */
interface Failure {
  at: 'audit' | 'event' | null
  after: number
}

/** The adapter as it is, except that the write `fail.at` names throws inside the transaction. */
function failingAt(storage: StoragePort, fail: Failure): StoragePort {
  const fails = (what: Failure['at']) => {
    if (fail.at !== what) return false
    if (fail.after === 0) return true
    fail.after -= 1
    return false
  }
  const broken = (what: string) => new Error(`test: the ${what} write failed`)
  const wrap = (tx: StorageTx): StorageTx => ({
    ...tx,
    auditLog: {
      ...tx.auditLog,
      record: async (entry) => {
        if (fails('audit')) throw broken('audit entry')
        return tx.auditLog.record(entry)
      },
    },
    outbox: {
      ...tx.outbox,
      enqueue: async (event) => {
        if (fails('event')) throw broken('event')
        return tx.outbox.enqueue(event)
      },
    },
  })
  return new Proxy(storage, {
    get(target, property) {
      if (property === 'transaction') return <T>(fn: (tx: StorageTx) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)))
      return Reflect.get(target, property, target)
    },
  })
}

let consoles = 0

async function consoleOver(context: CaseContext) {
  const fail: Failure = { at: null, after: 0 }
  consoles += 1
  const program: AffiliateProgram = await createAffiliateProgram({ storage: failingAt(context.storage, fail), clock: testClock(), project: `console-audit-${process.pid}-${Date.now()}-${consoles}` })
  const admin = createAdminConsole(program, { sessions: context.storage, onError: () => {} })
  const { key } = await program.keys.create({ name: 'Owner', scopes: ['*'] })
  const agent = new Agent(admin)
  const signIn = await agent.post('/admin/sign-in', { csrf: await agent.csrfOf('/admin/sign-in'), key })
  expect(signIn.status).toBe(303)
  /** The entries of console actions (sign-ins aside), newest first. */
  const entries = async () =>
    (await context.storage.auditLog.list(program.projectId, { limit: 100, offset: 0 })).items.filter((entry) => !entry.action.startsWith('console.')).map((entry) => [entry.action, entry.target, entry.detail])
  return { program, agent, fail, entries }
}

export function consoleAuditCases(context: CaseContext): void {
  describe('console actions and their audit entries', () => {
    it('an approval writes the change and exactly one entry', async () => {
      const { program, agent, entries } = await consoleOver(context)
      const ann = await program.applications.apply({ email: 'ann@example.com', name: 'Ann', signup: 'review' })
      const approved = await agent.post(`/admin/applications/${ann.affiliate.id}/approve`, { csrf: await agent.csrfOf('/admin/applications') })
      expect(approved.status).toBe(303)
      expect((await program.affiliates.get(ann.affiliate.id)).status).toBe('active')
      expect(await entries()).toEqual([['affiliate.approve', `affiliate:${ann.affiliate.id}`, 'ann@example.com']])
    })

    it('keeps neither the change nor the entry when the entry cannot be written, or the change fails after the reads', async () => {
      const { program, agent, fail, entries } = await consoleOver(context)
      const ann = await program.applications.apply({ email: 'ann@example.com', name: 'Ann', signup: 'review' })
      const csrf = await agent.csrfOf('/admin/applications')
      for (const at of ['audit', 'event'] as const) {
        fail.at = at
        const answer = await agent.post(`/admin/applications/${ann.affiliate.id}/approve`, { csrf })
        fail.at = null
        expect(answer.status).toBe(500)
        expect((await program.affiliates.get(ann.affiliate.id)).status).toBe('pending')
        expect(await entries()).toEqual([])
      }
      // Nothing half-done stands in the way: the same action then succeeds, with its one entry.
      expect((await agent.post(`/admin/applications/${ann.affiliate.id}/approve`, { csrf })).status).toBe(303)
      expect((await program.affiliates.get(ann.affiliate.id)).status).toBe('active')
      expect(await entries()).toEqual([['affiliate.approve', `affiliate:${ann.affiliate.id}`, 'ann@example.com']])
    })

    it('decides every checked conversion in review with its entry, or none when the second entry fails', async () => {
      const { program, agent, fail, entries } = await consoleOver(context)
      const ann = await program.affiliates.create({ email: 'ann@example.com' })
      const held: number[] = []
      for (const n of [1, 2]) {
        // The affiliate buying through its own link: held for review (fraud rule selfReferral).
        const { conversion } = await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `ann+${n}@example.com`, baseValue: 100 })
        expect(conversion.status).toBe('review')
        held.push(conversion.id)
      }
      const form = new URLSearchParams({ csrf: await agent.csrfOf('/admin/review'), decision: 'approve' })
      for (const id of held) form.append('id', String(id))
      const post = () => agent.request('/admin/review', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() })
      Object.assign(fail, { at: 'audit', after: 1 })
      expect((await post()).status).toBe(500)
      Object.assign(fail, { at: null, after: 0 })
      for (const id of held) expect((await program.conversions.get(id)).status).toBe('review')
      expect(await entries()).toEqual([])
      expect((await post()).status).toBe(303)
      for (const id of held) expect((await program.conversions.get(id)).status).toBe('active')
      expect(await entries()).toEqual(held.map((id) => ['conversion.approve', `conversion:${id}`, null]).reverse())
    })

    it('program.transaction: calls of the scope it hands over and an entry commit together, or none does', async () => {
      const { program, entries } = await consoleOver(context)
      const actor = { actorId: 'host:1', actorName: 'Host' }
      await expect(
        program.transaction(async (tx) => {
          await tx.affiliates.create({ email: 'bob@example.com' })
          await tx.auditLog.record({ ...actor, action: 'affiliate.create', target: 'affiliate:bob', detail: null })
          throw new Error('changed my mind')
        }),
      ).rejects.toThrow('changed my mind')
      expect((await program.affiliates.list()).total).toBe(0)
      expect(await entries()).toEqual([])
      const bob = await program.transaction(async (tx) => {
        const created = await tx.affiliates.create({ email: 'bob@example.com' })
        // Read inside the transaction: it sees what the transaction wrote.
        expect((await tx.affiliates.get(created.id)).email).toBe('bob@example.com')
        // A transaction of the scope joins the open one.
        await tx.transaction((joined) => joined.auditLog.record({ ...actor, action: 'affiliate.create', target: `affiliate:${created.id}`, detail: null }))
        return created
      })
      expect((await program.affiliates.list()).items.map((affiliate) => affiliate.id)).toEqual([bob.id])
      expect(await entries()).toEqual([['affiliate.create', `affiliate:${bob.id}`, null]])
    })

    it('program.transaction: a failing entry, or a failing event after the change, keeps neither', async () => {
      const { program, fail, entries } = await consoleOver(context)
      const actor = { actorId: 'host:1', actorName: 'Host' }
      const ann = await program.applications.apply({ email: 'ann@example.com', name: 'Ann', signup: 'review' })
      for (const at of ['audit', 'event'] as const) {
        fail.at = at
        const approval = program.transaction(async (tx) => {
          await tx.applications.approve(ann.affiliate.id)
          await tx.auditLog.record({ ...actor, action: 'affiliate.approve', target: `affiliate:${ann.affiliate.id}`, detail: null })
        })
        await expect(approval).rejects.toThrow(`test: the ${at === 'audit' ? 'audit entry' : 'event'} write failed`)
        fail.at = null
        expect((await program.affiliates.get(ann.affiliate.id)).status).toBe('pending')
        expect(await entries()).toEqual([])
      }
    })
  })
}
