// Payout files against formula injection written with full-width or small-form signs (and a
// PayPal and Wise email's plain + and -, as the email rule admits no full-width sign there): a
// spreadsheet reads ＝ ＋ － ＠ (and ﹦ ﹢ ﹣ ﹫) as = + - @, so the guard checks the NFKC form.
import { describe, expect, it } from 'vitest'
import { adminFixture, exportedPayoutFile, owedAffiliate, signedInAgent } from '../support/admin/helpers.js'

describe('admin console payout files against full-width formula signs', () => {
  it('quotes text cells whose first character is a full-width or small-form = + - @, in both files', async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture
    const ann = await owedAffiliate(program, 'ann@example.com', [10], { name: '＝HYPERLINK("http://evil.test","x")', paypalEmail: '+ann@paypal.test' })
    const bob = await owedAffiliate(program, 'bob@example.com', [10], { name: '－2+3' })
    const cy = await owedAffiliate(program, 'cy@example.com', [10], { name: '＠SUM(A1)' })
    const dee = await owedAffiliate(program, 'dee@example.com', [10], { name: '﹦1+1' })
    await program.affiliates.update(dee.id, { wiseDetails: { accountId: 'a', email: '-dee@wise.test' } })
    clock.advance({ days: 31 })
    const agent = await signedInAgent(fixture)
    const exportAs = (format: string) => exportedPayoutFile(agent, program, [ann, bob, cy, dee], format)
    expect((await exportAs('paypal'))[0]).toBe(`'+ann@paypal.test,3.00,USD,aff_${ann.id},Affiliate commissions 2026-03-04`)
    expect((await exportAs('wise')).slice(1)).toEqual([
      `"'＝HYPERLINK(""http://evil.test"",""x"")",ann@example.com,Affiliate commissions 2026-03-04,PERSON,source,3.00,USD,USD`,
      `'－2+3,bob@example.com,Affiliate commissions 2026-03-04,PERSON,source,3.00,USD,USD`,
      `'＠SUM(A1),cy@example.com,Affiliate commissions 2026-03-04,PERSON,source,3.00,USD,USD`,
      `'﹦1+1,'-dee@wise.test,Affiliate commissions 2026-03-04,PERSON,source,3.00,USD,USD`,
    ])
  })
})
