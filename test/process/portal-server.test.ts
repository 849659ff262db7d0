// `affiliate-kit serve` with `portal: { enabled: true, emailSignIn: true }`: the portal answers
// under /portal beside the API, and its "email me a link" form becomes a signed
// portal.sign_in_requested webhook whose link signs the affiliate in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { api, freePort, run } from '../support/cli/process.js'
import { Agent } from '../support/portal/helpers.js'
import { startReceiver, until } from '../support/webhooks-helpers.js'

const KEY = `rgk_${'Porta1Server2Key'.repeat(3)}`
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-portal-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('affiliate-kit serve with the portal', () => {
  it('serves the portal and sends sign-in links as portal.sign_in_requested webhooks', async () => {
    const receiver = await startReceiver()
    const port = await freePort()
    const config = join(dir, 'affiliate.config.json')
    writeFileSync(
      config,
      JSON.stringify({
        allowPrivateNetworks: true,
        webhooks: [{ url: receiver.url, events: ['portal.sign_in_requested'] }],
        portal: { enabled: true, emailSignIn: true, publicUrl: `http://127.0.0.1:${port}`, theme: { title: 'Acme partners', colors: { primary: '#0f766e' } } },
      }),
    )
    const server = run(['serve', '--port', String(port), '--database', 'memory', '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    const [, portalUrl] = await server.waitFor(/affiliate portal at (http:\/\/\S+)/)
    try {
      const origin = new URL(url!).origin
      expect(portalUrl).toBe(`${origin}/portal`)
      await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const agent = new Agent((request) => fetch(request), origin)
      const signInPage = await (await agent.get('/portal/sign-in')).text()
      expect(signInPage).toContain('Acme partners')
      const csrf = /name="csrf" value="([^"]+)"/.exec(signInPage)![1]!
      expect((await agent.post('/portal/sign-in/email', { csrf, email: 'ann@example.com' })).status).toBe(200)
      await until(async () => receiver.requests.length > 0, 20_000)
      const event = JSON.parse(receiver.requests[0]!.body) as { event: string; affiliate: { email: string }; sign_in: { link: string; expires_at: string } }
      expect(event.event).toBe('portal.sign_in_requested')
      expect(event.affiliate.email).toBe('ann@example.com')
      expect(event.sign_in.link).toMatch(new RegExp(`^${origin}/portal/sign-in\\?token=[A-Za-z0-9_-]{43}$`))
      const link = new URL(event.sign_in.link)
      expect((await agent.signIn(link.pathname + link.search)).status).toBe(303)
      expect(await (await agent.get('/portal/')).text()).toContain('ann@example.com')
      expect((await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')).status).toBe(200) // the API still answers beside it
    } finally {
      expect(await server.stop()).toBe(0)
      await receiver.close()
    }
  }, 90_000)

  it('stops the start with one line naming a bad portal setting', async () => {
    const config = join(dir, 'bad.config.json')
    writeFileSync(config, JSON.stringify({ portal: { enabled: true, theme: { colors: { primary: 'red; background: url(x)' } } } }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', config], { cwd: dir })
    expect(await server.exited).not.toBe(0)
    expect(server.output()).toContain('portal theme.colors.primary must be a CSS colour')
    expect(server.output()).not.toMatch(/\n\s+at /) // no stack trace
  }, 60_000)
})
