// `affiliate-kit serve` with `email` in its config (docs/email.md "Setting it up"): with no code and
// no emailSignIn, the portal's email form sends the sign-in mail over SMTP and its link signs in; a
// conversion over the API becomes a commission mail; an approval over the API mails a sign-in link
// that signs in; the log names the SMTP server, never its password, and each mail sent or not sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { api, freePort, run } from '../support/cli/process.js'
import { startSmtp } from '../support/email/smtp.js'
import { Agent } from '../support/portal/helpers.js'

const KEY = `rgk_${'Mai1Server2Key34'.repeat(3)}`
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-mail-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function until(check: () => boolean, timeoutMs: number, log: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out; output:\n${log()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('affiliate-kit serve with email', () => {
  it('mails sign-in links and commissions through the configured SMTP server', async () => {
    const smtp = await startSmtp({ reject: (to) => (to === 'gone@example.com' ? 'mailbox unavailable' : null) })
    const port = await freePort()
    const config = join(dir, 'affiliate.config.json')
    writeFileSync(
      config,
      JSON.stringify({
        currency: 'EUR',
        portal: { enabled: true, publicUrl: `http://127.0.0.1:${port}`, locale: 'de', application: { minSecondsToSubmit: 0 }, theme: { title: 'Acme Partner', colors: { primary: '#0f766e' } } },
        email: { smtp: `smtp://mailer:hunter2-secret@127.0.0.1:${smtp.port}`, from: 'Acme Partner <partner@acme.example>' },
      }),
    )
    const server = run(['serve', '--port', String(port), '--database', 'memory', '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    try {
      const origin = new URL(url!).origin
      await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const agent = new Agent((request) => fetch(request), origin)
      const csrf = /name="csrf" value="([^"]+)"/.exec(await (await agent.get('/portal/sign-in')).text())![1]!
      expect((await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })).status).toBe(200)
      await until(() => smtp.received.length > 0, 20_000, server.output)
      const signIn = smtp.received[0]!
      expect(signIn.to).toEqual(['ann@example.com'])
      expect(signIn.mail.subject).toBe('Ihr Anmeldelink für Acme Partner')
      const link = new URL(/Anmelden: (\S+)/.exec(signIn.mail.text ?? '')![1]!)
      expect(link.origin).toBe(origin)
      expect((await agent.signIn(link.pathname + link.search)).status).toBe(303)

      await api(url!, KEY, 'POST', '/conversions', { type: 'purchase', affiliate_id: 1, base_value: 41.13, reference: 'order-1' })
      // 30 % of 41.13 EUR is 12.339, 12.34 to the cent.
      await until(() => smtp.received.length > 1, 20_000, server.output)
      expect(smtp.received[1]!.mail.subject).toBe('Sie haben eine Provision von 12,34\u00a0€ verdient')

      // An application on the portal's page, approved over the API: the welcome mail's one-time
      // link, on portal.publicUrl, signs in.
      const applicant = new Agent((request) => fetch(request), origin)
      const form = await (await applicant.get('/portal/apply')).text()
      const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(form)![1]!
      const applied = await applicant.post('/portal/apply', { csrf: hidden('csrf'), started: hidden('started'), name: 'Bea', email: 'bea@example.com', website: 'https://bea.example', promotion: 'Blog', contact_me_by_fax: '' })
      expect(applied.status).toBe(200)
      await until(() => smtp.received.length > 2, 20_000, server.output)
      expect(smtp.received[2]!.mail.subject).toBe('Wir haben Ihre Bewerbung bei Acme Partner erhalten')
      expect((await api(url!, KEY, 'POST', '/affiliates/bea@example.com/approve', {})).status).toBe(200)
      await until(() => smtp.received.length > 3, 20_000, server.output)
      const welcome = smtp.received[3]!
      expect(welcome.to).toEqual(['bea@example.com'])
      expect(welcome.mail.subject).toBe('Willkommen bei Acme Partner: Ihre Bewerbung ist angenommen')
      const welcomeLink = new URL(/(http\S+\/portal\/sign-in\?token=\S+)/.exec(welcome.mail.text ?? '')![1]!)
      expect(welcomeLink.origin).toBe(origin)
      expect((await new Agent((request) => fetch(request), origin).signIn(welcomeLink.pathname + welcomeLink.search)).status).toBe(303)
      // A mail the SMTP server refuses for good (550) is logged, as each sent one is, at the default level.
      await api(url!, KEY, 'POST', '/affiliates', { email: 'gone@example.com', referral_code: 'GONE' })
      await api(url!, KEY, 'POST', '/conversions', { type: 'purchase', referral_code: 'GONE', base_value: 10, reference: 'order-gone' })
      await until(() => /WARN {2}mail not sent /.test(server.output()), 20_000, server.output)
      expect(server.output()).toMatch(/WARN {2}mail not sent mail_id=\d+ kind=new_commission attempt=1 outcome=bounced reply="550 mailbox unavailable"$/m)
      const sent = [...server.output().matchAll(/INFO {2}mail sent mail_id=\d+ kind=(\S+) attempt=1$/gm)].map((match) => match[1])
      expect(sent).toEqual(['sign_in', 'new_commission', 'application_received', 'approved'])
      expect(server.output()).toContain(`sending mail through smtp://127.0.0.1:${smtp.port}`)
      expect(server.output()).not.toContain('hunter2')
    } finally {
      expect(await server.stop()).toBe(0)
      await smtp.stop()
    }
  }, 90_000)

  it('stops the start with one line naming a bad email setting, without repeating it', async () => {
    const config = join(dir, 'bad.config.json')
    writeFileSync(config, JSON.stringify({ email: { smtp: 'http://user:hunter2@example.com', from: 'partners@acme.example' } }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', config], { cwd: dir })
    expect(await server.exited).not.toBe(0)
    expect(server.output()).toContain('"email.smtp" must be an SMTP URL')
    expect(server.output()).not.toContain('hunter2')
  }, 30_000)
})
