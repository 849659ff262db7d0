// The standalone server with `providers` in its config: POST /api/v1/providers/stripe/events takes
// signed Stripe events without an API key (a provider not configured is 404), GET
// /api/v1/provider-events lists them (both shapes, and through the typed client), and
// `affiliate-kit providers events` prints them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/index.js'
import { api, run } from '../support/cli/process.js'
import { transactionSettled } from '../support/providers/braintree-fixtures.js'
import { BRAINTREE_KEYS, braintreeForm } from '../support/providers/braintree-scenario.js'
import { CHARGEBEE_API_KEY, chargebeeApi } from '../support/providers/chargebee-api.js'
import { paymentSucceeded } from '../support/providers/chargebee-fixtures.js'
import { CHARGEBEE_CREDENTIALS, chargebeeAuthorization } from '../support/providers/chargebee-scenario.js'
import { orderPaid } from '../support/providers/polar-fixtures.js'
import { POLAR_SECRET, polarHeaders } from '../support/providers/polar-scenario.js'
import { RECURLY_API_KEY, recurlyApiServer } from '../support/providers/recurly-api.js'
import { chargeInvoice } from '../support/providers/recurly-fixtures.js'
import { RECURLY_SECRET, recurlySignature } from '../support/providers/recurly-scenario.js'
import { checkoutCompleted, invoicePaid } from '../support/providers/stripe-fixtures.js'
import { migratedDataDir } from '../support/pglite-template.js'

const KEY = `rgk_${'Prov1ders2Key3'.repeat(3)}abc`
const SECRET = 'whsec_server_test'
const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-providers-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function signed(event: unknown) {
  const body = JSON.stringify(event)
  return { body, headers: { 'Stripe-Signature': new Stripe('sk_test_not_used').webhooks.generateTestHeaderString({ payload: body, secret: SECRET }), 'Content-Type': 'application/json' } }
}

describe('affiliate-kit serve with providers', () => {
  it('receives Stripe events at /api/v1/providers/stripe/events and lists them by API and CLI', async () => {
    const config = join(dir, 'affiliate.config.json')
    writeFileSync(config, JSON.stringify({ commission: { purchase: { type: 'percentage', rate: 30 } }, providers: { stripe: { webhookSecret: SECRET } } }))
    const database = `pglite:${migratedDataDir(join(dir, 'data'))}`
    const server = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    await server.waitFor(/receiving stripe events at \S+\/providers\/stripe\/events/)
    try {
      await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const now = new Date().toISOString()
      const endpoint = `${url}/providers/stripe/events`
      for (const event of [
        checkoutCompleted({ at: now, customer: 'cus_Srv', email: 'srv@example.com', referral: 'ANN' }),
        invoicePaid({ at: now, id: 'in_Srv1', customer: 'cus_Srv', email: 'srv@example.com', subtotal: 1000, tax: 100, billingReason: 'manual', paymentIntent: 'pi_Srv1' }),
      ]) {
        const response = await fetch(endpoint, { method: 'POST', ...signed(event) })
        expect(response.status).toBe(200)
      }
      const forged = await fetch(endpoint, { method: 'POST', body: '{"id":"evt_x"}', headers: { 'Stripe-Signature': 't=1,v1=00' } })
      expect(forged.status).toBe(400)
      // A provider the config does not name: 404 saying what to configure (not the API's 401).
      const paddle = await fetch(`${url}/providers/paddle/events`, { method: 'POST', body: '{}' })
      expect([paddle.status, await paddle.json()]).toEqual([404, { error: expect.stringContaining('add "providers": { "paddle": { "webhookSecret": "..." } }') }])
      const unknown = await fetch(`${url}/providers/square/events`, { method: 'POST', body: '{}' })
      expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'no payment provider "square": the providers are stripe, paddle, lemon-squeezy, polar, braintree, chargebee, recurly' }])
      const braintree = await fetch(`${url}/providers/braintree/events`, { method: 'POST', body: '{}' })
      expect([braintree.status, await braintree.json()]).toEqual([404, { error: expect.stringContaining('add "providers": { "braintree": { "merchantId": "...", "publicKey": "...", "privateKey": "..." } }') }])
      expect((await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')).body).toMatchObject({ data: { total_earnings: '3.00' } })

      const listed = await api(url!, KEY, 'GET', '/provider-events?provider=stripe&reference=in_Srv1')
      expect(listed).toMatchObject({ status: 200, body: { success: true, pagination: { total: 1 }, data: [{ provider: 'stripe', type: 'invoice.paid', reference: 'in_Srv1', status: 'applied', conversion_id: expect.any(Number) }] } })
      expect((await api(url!, KEY, 'GET', '/provider-events?status=maybe')).status).toBe(400)
      expect((await fetch(`${url}/provider-events`)).status).toBe(401)
      const client = createClient({ baseURL: url!, apiKey: KEY })
      const viaClient = await client.providerEvents.list({ status: 'applied' })
      expect(viaClient.data.map((event) => event.type).sort()).toEqual(['checkout.session.completed', 'invoice.paid'])
    } finally {
      expect(await server.stop()).toBe(0)
    }

    const cli = run(['providers', 'events', '--database', database, '--reference', 'in_Srv1'], { cwd: dir })
    expect(await cli.exited).toBe(0)
    expect(cli.output()).toMatch(/\tstripe\tinvoice\.paid\tin_Srv1\tapplied\tin_Srv1: created conversion \d+ \(purchase, commission 3\.00 USD\)/)
    expect(cli.output()).toContain('1 of 1 events')
  }, 120_000)

  it('receives Polar and Braintree events from its config (a Braintree config is its API keys), refusing forged ones', async () => {
    const config = join(dir, 'affiliate.polar-braintree.config.json')
    writeFileSync(config, JSON.stringify({ commission: { purchase: { type: 'percentage', rate: 30 } }, providers: { polar: { webhookSecret: POLAR_SECRET, toleranceSeconds: 600 }, braintree: BRAINTREE_KEYS } }))
    const database = `pglite:${migratedDataDir(join(dir, 'data-polar-braintree'))}`
    const server = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    try {
      await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const now = new Date().toISOString()
      const order = JSON.stringify(orderPaid({ at: now, id: 'ord_srv1', customer: 'cus_srv', email: 'srv@example.com', subtotal: 1000, tax: 100, billingReason: 'purchase', product: 'prod_book', metadata: { referral: 'ANN' } }))
      const polar = `${url}/providers/polar/events`
      expect((await fetch(polar, { method: 'POST', body: order, headers: polarHeaders(order, POLAR_SECRET, new Date()) })).status).toBe(200)
      expect((await fetch(polar, { method: 'POST', body: order, headers: polarHeaders(order, 'polar_whs_forged', new Date()) })).status).toBe(400)
      const sale = braintreeForm(transactionSettled({ at: now, id: 'txn_srv1', customer: 'cus_srv2', email: 'srv2@example.com', amount: '22.00', tax: '2.00', customFields: { referral: 'ANN' } }))
      const braintree = `${url}/providers/braintree/events`
      const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
      expect((await fetch(braintree, form(sale))).status).toBe(200)
      expect((await fetch(braintree, form({ ...sale, bt_signature: `${BRAINTREE_KEYS.publicKey}|${'0'.repeat(40)}` }))).status).toBe(400)
      // 30% of 10.00 and of 20.00.
      expect((await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')).body).toMatchObject({ data: { total_earnings: '9.00' } })
      const listed = await api(url!, KEY, 'GET', '/provider-events')
      expect((listed.body as { data: Array<{ provider: string; status: string }> }).data.map((event) => [event.provider, event.status]).sort()).toEqual([
        ['braintree', 'applied'],
        ['polar', 'applied'],
      ])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it("receives Chargebee events from its config (Basic credentials, the site's API to fetch each event back), refusing forged ones", async () => {
    const config = join(dir, 'affiliate.chargebee.config.json')
    writeFileSync(config, JSON.stringify({ commission: { purchase: { type: 'percentage', rate: 30 } }, providers: { chargebee: { apiBase: chargebeeApi.url, apiKey: CHARGEBEE_API_KEY, ...CHARGEBEE_CREDENTIALS } } }))
    const database = `pglite:${migratedDataDir(join(dir, 'data-chargebee'))}`
    const server = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    try {
      await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const invoice = { id: 'inv_srv1', at: new Date().toISOString(), customer: { id: 'cb_srv', email: 'srv@example.com', referral: 'ANN' }, lines: [{ itemPrice: 'book-USD', amount: 1000 }], tax: 100 }
      const paid = paymentSucceeded('ev_srv1', invoice)
      chargebeeApi.hold(paid)
      const chargebee = `${url}/providers/chargebee/events`
      const post = (event: unknown, authorization = chargebeeAuthorization()) => fetch(chargebee, { method: 'POST', body: JSON.stringify(event), headers: { 'Content-Type': 'application/json', Authorization: authorization } })
      // A forged body under a known id: the API's copy is applied, not the body's 1,000,000.00.
      const forged = paymentSucceeded('ev_srv1', { ...invoice, lines: [{ itemPrice: 'book-USD', amount: 100_000_000 }] })
      expect((await post(forged)).status).toBe(200)
      expect((await post(paymentSucceeded('ev_srv_unknown', invoice))).status).toBe(400)
      expect((await post(paid, chargebeeAuthorization('chargebee-hooks', 'guessed'))).status).toBe(400)
      expect((await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')).body).toMatchObject({ data: { total_earnings: '3.00' } })
      const listed = await api(url!, KEY, 'GET', '/provider-events')
      expect((listed.body as { data: Array<{ provider: string; event_id: string; status: string }> }).data.map((event) => [event.provider, event.event_id, event.status])).toEqual([['chargebee', 'ev_srv1', 'applied']])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it("receives Recurly notifications from its config (the endpoint's secret key, the API key to read each invoice back), refusing forged ones", async () => {
    const config = join(dir, 'affiliate.recurly.config.json')
    writeFileSync(config, JSON.stringify({ commission: { purchase: { type: 'percentage', rate: 30 } }, providers: { recurly: { webhookSecret: RECURLY_SECRET, apiKey: RECURLY_API_KEY, apiBase: recurlyApiServer.url } } }))
    const database = `pglite:${migratedDataDir(join(dir, 'data-recurly'))}`
    const server = run(['serve', '--port', '0', '--database', database, '--config', config], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    try {
      await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
      const invoice = { id: 'inv_srv1', number: 7001, at: new Date().toISOString(), account: { id: 'acc_srv', code: 'srv', email: 'srv@example.com', referral: 'ANN' }, origin: 'purchase' as const, lines: [{ itemCode: 'book', amount: 1000 }], tax: 100 }
      const paid = chargeInvoice('paid', invoice)
      recurlyApiServer.hold(paid.holds)
      const recurly = `${url}/providers/recurly/events`
      const post = (notification: unknown, secret = RECURLY_SECRET) => {
        const body = JSON.stringify(notification)
        return fetch(recurly, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'recurly-signature': recurlySignature(body, new Date(), [secret]) } })
      }
      // The body names the invoice; what it paid is the API's 10.00, not a figure of the body.
      expect((await post({ ...paid.notification, total: 1_000_000 })).status).toBe(200)
      expect((await post(chargeInvoice('paid', { ...invoice, number: 7999 }).notification)).status).toBe(400)
      expect((await post(paid.notification, 'guessed')).status).toBe(400)
      expect((await api(url!, KEY, 'GET', '/affiliates/ann%40example.com')).body).toMatchObject({ data: { total_earnings: '3.00' } })
      const listed = await api(url!, KEY, 'GET', '/provider-events')
      expect((listed.body as { data: Array<{ provider: string; status: string }> }).data.map((event) => [event.provider, event.status])).toEqual([['recurly', 'applied']])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it.each([
    [{ providers: { braintree: { merchantId: 'm', publicKey: 'p' } } }, '"providers.braintree.privateKey" is required'],
    [{ providers: { braintree: { webhookSecret: 'bt' } } }, '"providers.braintree.merchantId" is required'],
    [{ providers: { stripe: {} } }, '"providers.stripe.webhookSecret" is required'],
    [{ providers: { chargebee: { site: 'acme', apiKey: 'k', webhookUsername: 'u' } } }, '"providers.chargebee.webhookPassword" is required'],
    [{ providers: { chargebee: { site: 'https://acme.chargebee.com', apiKey: 'k', webhookUsername: 'u', webhookPassword: 'p' } } }, '"providers.chargebee.site" must be the site name of <site>.chargebee.com'],
    [{ providers: { chargebee: { apiKey: 'k', webhookUsername: 'u', webhookPassword: 'p' } } }, '"providers.chargebee" needs "site" (acme of acme.chargebee.com) or "apiBase"'],
    [{ providers: { recurly: { webhookSecret: 's' } } }, '"providers.recurly.apiKey" is required'],
    [{ providers: { recurly: { webhookSecret: 's', apiKey: 'k', region: 'au' } } }, '"providers.recurly.region" must be "us" or "eu"'],
    [{ providers: { paddle: 'pdl_ntfset_01secret' } }, '"providers.paddle" must be an object'],
    [{ providers: null }, '"providers" must be an object'],
    [{ providers: { lemonSqueezy: { webhookSecret: 'ls_secret', toleranceSeconds: 5 } } }, 'unknown field "providers.lemonSqueezy.toleranceSeconds"'],
  ])('refuses to start with the provider config %j, saying what is wrong with which key', async (config, message) => {
    const file = join(dir, 'bad.config.json')
    writeFileSync(file, JSON.stringify(config))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', file], { cwd: dir })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain(`config ${file}: ${message}`)
    expect(server.output()).not.toContain('secret')
  })

  it.each([
    ['{ "providers": { "stripe": { "webhookSecret": \'whsec_Quoted1\' } } }', 'unexpected character at line 1, column 47'],
    ['{\n  "providers": {\n    "paddle": { "webhookSecret": pdl_ntfset_Unquoted2 }\n  }\n}', 'unexpected character at line 3, column 34'],
    ['{ "providers": { "lemonSqueezy": { "webhookSecret": "ls_Trailing3", } } }', "Expected double-quoted property name at line 1, column 69"],
  ])('a config file that is not JSON stops the start with the place of the error, never the text there: %s', async (text, message) => {
    const file = join(dir, 'broken.config.json')
    writeFileSync(file, text)
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', file], { cwd: dir })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain(`config ${file}: not valid JSON: ${message}`)
    expect(server.output()).not.toMatch(/whsec_|pdl_ntfset|ls_Trailing/)
  })

  it.each([
    [{ tracking: { landingUrl: 'https://shop.example/', prefix: '/api' } }, '"tracking.prefix" must not be /api or under it'],
    [{ portal: { enabled: true, path: '/api/v1/providers' } }, '"portal.path" must not be /api or under it'],
    [{ admin: { enabled: true, path: '/healthz' } }, '"admin.path" must not be /healthz or under it'],
    [{ portal: { enabled: true, path: '/r' }, tracking: { landingUrl: 'https://shop.example/' } }, '"portal.path" must not be /r (tracking.prefix) or under it'],
  ])('refuses a path that would take over the API and its provider endpoints: %j', async (mounts, message) => {
    const file = join(dir, 'clash.config.json')
    writeFileSync(file, JSON.stringify({ providers: { stripe: { webhookSecret: SECRET } }, ...mounts }))
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', file], { cwd: dir })
    const outcome = await Promise.race([server.exited, server.waitFor(/listening on/).then(() => 'listening')])
    if (outcome === 'listening') await server.stop()
    expect(outcome).toBe(1)
    expect(server.output()).toContain(`config ${file}: ${message}`)
  })
})
