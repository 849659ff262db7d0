// The session store port on memory (the reference), PGlite and PostgreSQL: expiry, touch,
// revocation, single-use sign-in tokens (also when two redeem at once), digests only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { testClock } from '../../../src/index.js'
import type { StoragePort } from '../../../src/index.js'
import type { WithSessionStore } from '../../../src/core/ports/session-store.js'
import { webSessions } from '../../../src/web/sessions.js'
import { STORAGES } from '../../support/http/storages.js'
import { DATABASE_URL } from '../../support/sql/pg-schema.js'

type Storage = StoragePort & WithSessionStore

const PROJECT = 'proj_sessions'

for (const adapter of STORAGES) {
  const suite = adapter.skip ? describe.skip : describe
  suite(`session store: ${adapter.name}${adapter.skip ? ` (skipped: ${adapter.skip})` : ''}`, () => {
    let storage: Storage
    let schema: string | undefined
    let cleanup: () => Promise<void>
    const clock = testClock('2026-03-01T00:00:00Z')
    const policy = { idleTimeoutSeconds: 600, absoluteTimeoutSeconds: 3600, signInLinkTtlSeconds: 300 }

    beforeAll(async () => {
      ;({ storage, cleanup, schema } = adapter.make())
      await storage.projects.insert({ id: PROJECT, name: PROJECT, settings: { currency: 'USD', holdPeriodDays: 0, commission: { purchase: { type: 'percentage', rate: 30 } } }, createdAt: clock.now() })
    })
    afterAll(() => cleanup?.())

    it('resumes a live session and ends it after the idle timeout', async () => {
      const sessions = webSessions(storage.sessions, 'portal', clock, policy)
      const { id } = await sessions.start(PROJECT, '1')
      expect((await sessions.resume(id))?.subject).toBe('1')
      clock.advance({ seconds: 599 })
      expect(await sessions.resume(id)).not.toBeNull()
      clock.advance({ seconds: 599 })
      expect(await sessions.resume(id)).not.toBeNull() // used 599 s ago: the idle clock moved
      clock.advance({ seconds: 601 })
      expect(await sessions.resume(id)).toBeNull()
    })

    it('ends a session at the absolute timeout however often it is used', async () => {
      const sessions = webSessions(storage.sessions, 'portal', clock, policy)
      const { id } = await sessions.start(PROJECT, '2')
      for (let minutes = 5; minutes < 60; minutes += 5) {
        clock.advance({ minutes: 5 })
        expect(await sessions.resume(id)).not.toBeNull()
      }
      clock.advance({ minutes: 5 })
      expect(await sessions.resume(id)).toBeNull()
    })

    it('revokes one session, and every session of a subject', async () => {
      const sessions = webSessions(storage.sessions, 'portal', clock, policy)
      const one = await sessions.start(PROJECT, '3')
      const two = await sessions.start(PROJECT, '3')
      const other = await sessions.start(PROJECT, '4')
      await sessions.end(one.id)
      expect(await sessions.resume(one.id)).toBeNull()
      expect(await sessions.resume(two.id)).not.toBeNull()
      expect(await sessions.endAll(PROJECT, '3')).toBe(1)
      expect(await sessions.resume(two.id)).toBeNull()
      expect(await sessions.resume(other.id)).not.toBeNull()
    })

    it('never opens a session of another audience, nor a made-up or malformed id', async () => {
      const portal = webSessions(storage.sessions, 'portal', clock, policy)
      const admin = webSessions(storage.sessions, 'admin', clock, policy)
      const { id } = await portal.start(PROJECT, '5')
      expect(await admin.resume(id)).toBeNull()
      expect(await portal.resume('A'.repeat(43))).toBeNull()
      expect(await portal.resume("' OR 1=1 --")).toBeNull()
      expect(await portal.resume(null)).toBeNull()
    })

    it('redeems a sign-in token once, also when two redeem it at the same time', async () => {
      const sessions = webSessions(storage.sessions, 'portal', clock, policy)
      const { token } = await sessions.issueSignInToken(PROJECT, '6')
      const results = await Promise.all([sessions.redeemSignInToken(token), sessions.redeemSignInToken(token)])
      expect(results.filter((result) => result !== null)).toHaveLength(1)
      expect(results.find((result) => result !== null)?.subject).toBe('6')
      expect(await sessions.redeemSignInToken(token)).toBeNull()
    })

    it('refuses an expired sign-in token, and one of another audience', async () => {
      const portal = webSessions(storage.sessions, 'portal', clock, policy)
      const admin = webSessions(storage.sessions, 'admin', clock, policy)
      const { token } = await portal.issueSignInToken(PROJECT, '7')
      clock.advance({ seconds: 300 })
      expect(await portal.redeemSignInToken(token)).toBeNull()
      const fresh = await portal.issueSignInToken(PROJECT, '7')
      expect(await admin.redeemSignInToken(fresh.token)).toBeNull()
    })

    it('purges expired sessions and tokens', async () => {
      const sessions = webSessions(storage.sessions, 'portal', clock, policy)
      const { id } = await sessions.start(PROJECT, '8')
      await sessions.issueSignInToken(PROJECT, '8')
      clock.advance({ hours: 2 })
      expect(await storage.sessions.purgeExpired(clock.now())).toBeGreaterThanOrEqual(2)
      expect(await storage.sessions.purgeExpired(clock.now())).toBe(0)
      expect(await sessions.resume(id)).toBeNull()
    })

    if (adapter.name === 'postgres') {
      it('stores digests, never the session id or the token (raw SQL)', async () => {
        const sessions = webSessions(storage.sessions, 'portal', clock, policy)
        const { id } = await sessions.start(PROJECT, '9')
        const { token } = await sessions.issueSignInToken(PROJECT, '9')
        const client = new pg.Client({ connectionString: DATABASE_URL })
        await client.connect()
        try {
          const rows = await client.query(`SELECT digest FROM "${schema}".web_sessions UNION ALL SELECT digest FROM "${schema}".web_sign_in_tokens`)
          const text = JSON.stringify(rows.rows)
          expect(rows.rows.length).toBeGreaterThanOrEqual(2)
          expect(text).not.toContain(id)
          expect(text).not.toContain(token)
        } finally {
          await client.end()
        }
      })
    }
  })
}
