// Control characters in portal forms (issue 43, 16): a NUL or another control character in the
// application form (name, promotion, a custom field), the payment details of Settings or the legal
// name of Tax details is a 400 naming the field, as the API answers, and changes nothing; on
// PostgreSQL (whose text cannot hold NUL) as on memory and PGlite. Nothing reaches onError.
import { afterAll, describe, expect, it } from 'vitest'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { createPortal } from '../../src/portal/index.js'
import { STORAGES } from '../support/http/storages.js'
import { Agent } from '../support/portal/helpers.js'

const application = { fields: [{ name: 'audience', label: 'Audience', type: 'text' as const }] }

for (const under of STORAGES) {
  describe.skipIf(under.skip !== undefined)(`portal forms refuse control characters (${under.name}${under.skip ? `: skipped, ${under.skip}` : ''})`, () => {
    const cleanups: Array<() => Promise<void>> = []
    afterAll(async () => {
      for (const cleanup of cleanups) await cleanup()
    })

    async function start() {
      const { storage, cleanup } = under.make()
      cleanups.push(cleanup)
      const clock = testClock('2026-03-01T09:00:00Z')
      const taxIdKeys = { current: { id: 'k1', key: Buffer.alloc(32, 7).toString('base64') } }
      const program = await createAffiliateProgram({ storage, clock, taxIdKeys, settings: { payouts: { requireTaxDetails: true } } })
      const errors: unknown[] = []
      const portal = createPortal(program, { sessions: storage, application, onError: (error) => errors.push(error) })
      return { program, clock, portal, errors }
    }

    it('on the application form: name, promotion and a custom field', async () => {
      const { program, clock, portal, errors } = await start()
      const answers = (email: string) => ({ name: 'Ann Lee', email, website: 'https://ann.example', promotion: 'A newsletter', field_audience: 'Cooks', contact_me_by_fax: '' })
      for (const [field, value] of [
        ['name', 'Ann\u0000Lee'],
        ['promotion', 'News\u0000letter'],
        ['field_audience', 'Co\u0000oks'],
        ['name', 'Ann\u0007Lee'],
      ] as const) {
        const agent = new Agent(portal)
        const page = await (await agent.get('/portal/apply')).text()
        const hidden = { csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]!, started: /name="started" value="([^"]+)"/.exec(page)![1]! }
        clock.advance({ seconds: 30 })
        const response = await agent.post('/portal/apply', { ...hidden, ...answers(`ann-${field}@example.com`), [field]: value })
        expect(response.status, field).toBe(400)
        expect(await response.text()).toContain(`${field}: must not contain control characters`)
      }
      expect((await program.affiliates.list({ status: 'pending', limit: 100 })).total).toBe(0)
      // The same form without them is taken.
      const agent = new Agent(portal)
      const page = await (await agent.get('/portal/apply')).text()
      const hidden = { csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]!, started: /name="started" value="([^"]+)"/.exec(page)![1]! }
      clock.advance({ seconds: 30 })
      expect((await agent.post('/portal/apply', { ...hidden, ...answers('ann@example.com') })).status).toBe(200)
      expect((await program.affiliates.list({ status: 'pending', limit: 100 })).items.map((affiliate) => affiliate.email)).toEqual(['ann@example.com'])
      expect(errors).toEqual([])
    })

    it('on Settings (payment details) and Tax details (legal name)', async () => {
      const { program, portal, errors } = await start()
      const ann = await program.affiliates.create({ email: 'ann@example.com', paymentDetails: 'IBAN DE00 1234' })
      const agent = new Agent(portal)
      expect((await agent.signIn((await portal.createSignInLink('ann@example.com')).url)).status).toBe(303)

      const settingsCsrf = await agent.csrfOf('/portal/settings')
      const settings = await agent.post('/portal/settings', { csrf: settingsCsrf, payout_method: 'bank', payment_details: 'IBAN\u0000DE99' })
      expect(settings.status).toBe(400)
      expect(await settings.text()).toContain('payment_details: must not contain control characters')
      expect((await program.affiliates.get(ann.id)).paymentDetails).toBe('IBAN DE00 1234')

      const taxCsrf = await agent.csrfOf('/portal/tax')
      const tax = await agent.post('/portal/tax', { csrf: taxCsrf, legal_name: 'Ann\u0000Lee', country: 'DE', form_type: 'W-8BEN', tax_id: 'DE123456789' })
      expect(tax.status).toBe(400)
      expect(await tax.text()).toContain('legal_name: must not contain control characters')
      expect(await program.taxDetails.get(ann.id)).toBeNull()

      // The same forms without them are taken.
      expect((await agent.post('/portal/tax', { csrf: taxCsrf, legal_name: 'Ann Lee', country: 'DE', form_type: 'W-8BEN', tax_id: 'DE123456789' })).status).toBe(303)
      expect(await program.taxDetails.get(ann.id)).not.toBeNull()
      expect(errors).toEqual([])
    })
  })
}
