// Imported history is not news (docs/migrating.md, docs/email.md "Messages"): importing a tool's
// commissions, one by one through conversions.create (an active webhook endpoint makes the import
// take that path) or in bulk, mails nobody about them over a real SMTP server; a commission earned
// after the import is mailed as usual. On the memory adapter and on PGlite (the SQL outbox).
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { createMailDispatcher, smtpMailer } from '../../src/email/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { csvSource, importProgram } from '../../src/importers/index.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { writeExports } from '../support/importers/csv-exports.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { startSmtp } from '../support/email/smtp.js'

const tempDir = tempDirs('affiliate-kit-email-import')

const ADAPTERS = { memory: () => memoryStorage(), PGlite: () => pgliteStorage({ dataDir: migratedDataDir(join(tempDir(), 'data')) }) }

describe('importing history sends no affiliate mail', () => {
  for (const [adapter, makeStorage] of Object.entries(ADAPTERS)) {
    for (const path of ['with a webhook endpoint active', 'with no webhook endpoint'] as const) {
      it(`${adapter}: commissions imported ${path}: no commission mail reaches the SMTP server`, async () => {
        const smtp = await startSmtp()
        const storage = makeStorage()
        const clock = testClock('2026-03-01T00:00:00.000Z')
        const program = await createAffiliateProgram({ storage, clock, settings: { currency: 'USD', holdPeriodDays: 30 } })
        const events: string[] = []
        try {
          if (path === 'with a webhook endpoint active') await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted'] })
          const mails = createMailDispatcher({ storage, mailer: smtpMailer(smtp.url), from: 'Acme Partners <partners@acme.example>', clock })
          // Mail is on before the import: every mailable event from now on would be queued.
          await mails.dispatch()
          const dir = tempDir()
          writeExports('rewardful', dir)

          const report = await importProgram(program, csvSource('rewardful', { dir, currency: 'USD' }))
          expect(report.counts.commissions.created).toBe(6)
          if (path === 'with a webhook endpoint active') {
            for (const delivery of (await program.webhooks.deliveries({ limit: 100 })).items) events.push(delivery.eventType)
            // The events still go to webhooks: only the mails are left out.
            expect(events.filter((type) => type === 'referral_converted')).toHaveLength(6)
          }
          clock.advance({ days: 40 })
          await mails.dispatch()
          expect(smtp.received).toEqual([])
          expect((await program.mail.list({ limit: 100 })).items).toEqual([])

          const james = await program.affiliates.get('james@example.com')
          await program.conversions.create({ type: 'purchase', affiliateId: james.id, value: '5.00', baseValue: '50.00', reference: 'order-after-import' })
          await mails.dispatch()
          expect(smtp.received.map(({ to, mail }) => [to[0], mail.subject])).toEqual([['james@example.com', 'You earned a commission of $5.00']])
        } finally {
          await smtp.stop()
          await program.close()
        }
      }, 60_000)
    }
  }
})
