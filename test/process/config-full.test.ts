// affiliate.config.full.json, the no-code example with every surface (tracking, portal with its
// application form, admin console, email, payout settings and PayPal payouts, Stripe events,
// webhooks): `serve --config` takes it as shipped, starts every surface it names without a
// warning, and the console shows an application's answers under the form's labels.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { signInWithKey } from '../support/admin/helpers.js'
import { run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { Agent } from '../support/portal/helpers.js'

const tempDir = tempDirs('affiliate-kit-config-full')
const FULL = new URL('../../affiliate.config.full.json', import.meta.url).pathname

describe('affiliate.config.full.json', () => {
  it('names tracking, portal, admin, email, payouts and providers, and serve --config starts all of them as shipped', async () => {
    const config = JSON.parse(readFileSync(FULL, 'utf8')) as Record<string, unknown>
    expect(Object.keys(config)).toEqual(expect.arrayContaining(['tracking', 'portal', 'admin', 'email', 'payouts', 'payoutProviders', 'providers', 'webhooks']))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', FULL], { cwd: tempDir() })
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
      const [, key] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)
      const origin = new URL(url!).origin
      const start = server.output()
      for (const line of [
        'payout sync: PayPal every 300 s',
        'sending mail through smtp://smtp.your-app.example:587',
        `affiliate portal at ${origin}/portal`,
        `admin console at ${origin}/admin`,
        `receiving stripe events at ${url}/providers/stripe/events`,
      ]) {
        expect(start).toContain(line)
      }
      expect(start).not.toMatch(/ (WARN|ERROR) /)
      expect(start).not.toContain('replace-with-your-smtp-password')

      // Referral links are served: an unknown code still lands on the configured landing page.
      const link = await fetch(`${origin}/r/NOSUCHCODE`, { redirect: 'manual' })
      expect(link.status).toBe(302)
      expect(link.headers.get('location')).toMatch(/^https:\/\/your-app\.example\//)

      // An application with the form's own fields; the console shows the answers under their labels.
      const applicant = new Agent((request) => fetch(request), origin)
      const form = await (await applicant.get('/portal/apply')).text()
      expect(form).toContain('Main channel URL')
      const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(form)![1]!
      await new Promise((resolve) => setTimeout(resolve, 3_100)) // the form's minimum time to submit
      const applied = await applicant.post('/portal/apply', {
        csrf: hidden('csrf'),
        started: hidden('started'),
        name: 'Bea',
        email: 'bea@example.com',
        website: 'https://bea.example',
        promotion: 'Video reviews',
        field_channel_url: 'https://video.example/@bea',
        field_audience: '1,000 to 10,000',
        terms: 'on',
        contact_me_by_fax: '',
      })
      expect(applied.status).toBe(200)
      const owner = new Agent((request) => fetch(request), origin)
      expect((await signInWithKey(owner, key!)).status).toBe(303)
      const queue = await (await owner.get('/admin/applications')).text()
      expect(queue).toContain('bea@example.com')
      expect(queue).toMatch(/Main channel URL[\s\S]{0,80}https:\/\/video\.example\/@bea/)
      expect(queue).toMatch(/Audience size[\s\S]{0,80}1,000 to 10,000/)
      expect(queue).not.toContain('channel_url')
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 90_000)
})
