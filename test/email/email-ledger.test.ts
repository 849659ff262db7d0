// Mail amounts against the ledger (issue 43, 3; docs/email.md, docs/migrating.md): after a tool's
// history is imported (a voided commission among it), the first start's monthly summaries mail
// nobody about it, and every amount in every mail of each kind that carries one (new commission,
// ready for payout, payout sent, monthly summary) is the ledger's figure, read over REST
// (GET /ledger for the period, GET /affiliates/{email}/balances at its end), as an SMTP server
// started here receives it.
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createMailDispatcher, smtpMailer } from '../../src/email/index.js'
import { createHandler } from '../../src/http/index.js'
import { csvSource, importProgram } from '../../src/importers/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram } from '../../src/index.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { startSmtp, type SmtpCatcher } from '../support/email/smtp.js'
import { caller } from '../support/http/helpers.js'
import { writeExports } from '../support/importers/csv-exports.js'

const tempDir = tempDirs('affiliate-kit-email-ledger')
const cents = (text: string) => BigInt(text.replace('.', ''))
const dollars = (minor: bigint) => `$${(minor / 100n).toLocaleString('en')}.${String(minor % 100n).padStart(2, '0')}`

let smtp: SmtpCatcher | null = null
let program: AffiliateProgram | null = null
afterEach(async () => {
  await smtp?.stop()
  await program?.close()
})

interface LedgerEntry {
  affiliate_id: number
  type: string
  amount: string
  conversion_id: number | null
  payout_id: number | null
}

describe('mail amounts are the ledger figures, and imported history is never mailed', () => {
  it('new commission, ready for payout, payout sent and the monthly summary, after an import with a voided commission', async () => {
    smtp = await startSmtp()
    const storage = memoryStorage()
    const clock = testClock('2026-03-01T00:00:00.000Z')
    program = await createAffiliateProgram({ storage, clock, settings: { currency: 'USD', holdPeriodDays: 30 } })
    const mails = createMailDispatcher({ storage, mailer: smtpMailer(smtp.url), from: 'Acme Partners <partners@acme.example>', clock, jitter: 0 })
    await mails.dispatch()
    const dir = tempDir()
    writeExports('rewardful', dir)
    expect((await importProgram(program, csvSource('rewardful', { dir, currency: 'USD' }))).counts.commissions.created).toBe(6)

    // The first start after the import queues February's summaries: imported history is not news.
    clock.set('2026-03-01T06:00:00Z')
    expect(await program.mail.queueMonthlySummaries()).toBe(0)
    expect(await program.mail.queueMonthlySummaries({ month: '2026-01' })).toBe(0)
    await mails.dispatch()
    expect(smtp.received).toEqual([])

    // March, recorded by the program itself: two commissions, one refunded, a payout.
    const james = await program.affiliates.get('james@example.com')
    clock.set('2026-03-05T10:00:00Z')
    const kept = (await program.conversions.create({ type: 'purchase', affiliateId: james.id, value: '40.00', baseValue: '400.00', reference: 'march-1' })).conversion
    await mails.dispatch()
    clock.set('2026-03-08T10:00:00Z')
    const refunded = (await program.conversions.create({ type: 'purchase', affiliateId: james.id, value: '9.00', baseValue: '90.00', reference: 'march-2' })).conversion
    await mails.dispatch()
    clock.set('2026-03-20T10:00:00Z')
    await program.conversions.update(refunded.id, { status: 'refunded' })
    clock.set('2026-03-25T10:00:00Z')
    const payout = await program.payouts.create({ affiliateId: james.id, amount: '10.00', method: 'paypal' })
    await mails.dispatch()
    // Hold ends: the kept commission's "ready for payout" (April 4), then April's start and its summaries.
    clock.set('2026-04-04T12:00:00Z')
    await mails.dispatch()
    clock.set('2026-04-06T06:00:00Z')
    expect(await program.mail.queueMonthlySummaries()).toBe(1)
    await mails.dispatch()

    const { key } = await program.keys.create({ name: 'ledger' })
    const call = caller(createHandler(program, { rateLimit: false, state: storage.keyedState }), key)
    const ledger = ((await call('GET', '/ledger?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z')).body as { data: LedgerEntry[] }).data.filter((entry) => entry.affiliate_id === james.id)
    const balances = (await call('GET', `/affiliates/james@example.com/balances?as_of=2026-04-01T00:00:00Z`)).body as { data: { unpaid_earnings: string } }
    const commissionOf = (conversionId: number) => cents(ledger.find((entry) => entry.type === 'commission' && entry.conversion_id === conversionId)!.amount)
    const sum = (types: string[]) => ledger.filter((entry) => types.includes(entry.type)).reduce((total, entry) => total + cents(entry.amount), 0n)

    // Nobody but James, who earned in March, got a mail: not Q or Eve, whose history is imported.
    expect(new Set(smtp.received.map(({ to }) => to[0]))).toEqual(new Set(['james@example.com']))
    const subjects = smtp.received.map(({ mail }) => mail.subject)
    expect(subjects.filter((subject) => subject?.startsWith('You earned a commission of'))).toEqual([
      `You earned a commission of ${dollars(commissionOf(kept.id))}`,
      `You earned a commission of ${dollars(commissionOf(refunded.id))}`,
    ])
    // The refunded one is no longer payable: only the kept one's hold ending is mailed.
    expect(subjects.filter((subject) => subject?.endsWith('is ready for payout'))).toEqual([`${dollars(commissionOf(kept.id))} is ready for payout`])
    const payoutEntry = ledger.find((entry) => entry.type === 'payout' && entry.payout_id === payout.id)!
    expect(subjects.filter((subject) => subject?.startsWith('Payout sent'))).toEqual([`Payout sent: ${dollars(-cents(payoutEntry.amount))}`])

    const summary = smtp.received.find(({ mail }) => mail.subject?.includes('summary for March 2026'))!.mail.text!
    const earned = sum(['commission', 'reversal', 'clawback', 'credit_return'])
    const paid = -sum(['payout', 'paid_outside', 'unpaid_outside'])
    expect([earned, paid]).toEqual([4000n, 1000n])
    expect(summary).toContain(`Commission earned: ${dollars(earned)}`)
    expect(summary).toContain('Conversions: 1')
    expect(summary).toContain(`Paid out: ${dollars(paid)}`)
    expect(summary).toContain(`Unpaid balance: ${dollars(cents(balances.data.unpaid_earnings))}`)
    expect(subjects).toHaveLength(5)
  }, 60_000)

  it('a tier and a bonus that imported history reaches are sent to webhooks, never mailed', async () => {
    smtp = await startSmtp()
    const storage = memoryStorage()
    const clock = testClock('2026-03-01T00:00:00.000Z')
    const pct = (rate: number) => ({ type: 'percentage' as const, rate })
    program = await createAffiliateProgram({
      storage,
      clock,
      settings: {
        currency: 'USD',
        holdPeriodDays: 30,
        commission: { purchase: pct(30), tierPeriod: 'lifetime', tiers: [{ name: 'Gold', minRevenue: '100.00', purchase: pct(40) }], bonuses: [{ name: 'First customer', customers: 1, amount: '5.00', period: 'lifetime' }] },
      },
    })
    await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['affiliate.tier_changed', 'referral_converted'] })
    const mails = createMailDispatcher({ storage, mailer: smtpMailer(smtp.url), from: 'Acme Partners <partners@acme.example>', clock, jitter: 0 })
    await mails.dispatch()
    const dir = tempDir()
    writeExports('rewardful', dir)
    await importProgram(program, csvSource('rewardful', { dir, currency: 'USD' }))
    const events = (await program.webhooks.deliveries({ limit: 100 })).items.map((delivery) => delivery.eventType)
    // The import reached Gold and the bonus for someone: the webhooks say so.
    expect(events).toContain('affiliate.tier_changed')
    expect((await program.conversions.list({ limit: 100 })).items.some((conversion) => conversion.reference?.startsWith('bonus:'))).toBe(true)
    clock.advance({ days: 1 })
    await mails.dispatch()
    expect(smtp.received).toEqual([])
    expect((await program.mail.list({ limit: 100 })).items).toEqual([])
  }, 60_000)
})
