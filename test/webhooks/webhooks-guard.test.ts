// The SSRF guard (docs/webhooks.md "Private networks"): literal private hosts refused at save time, and the address
// actually connected to checked at send time; plus test deliveries (the dispatcher's sendTest).
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { verify as octokitVerify } from '@octokit/webhooks-methods'
import { afterEach, describe, expect, it } from 'vitest'
import { EVENT_TYPES } from '../../src/index.js'
import { isForbiddenAddress } from '../../src/webhooks/index.js'
import { answer, closedPort, signUp, startReceiver, webhookProgram, type Receiver } from '../support/webhooks-helpers.js'

const receivers: Receiver[] = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
})
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args)
  receivers.push(started)
  return started
}

describe('SSRF guard', () => {
  it.each([
    'http://127.0.0.1/in',
    'http://10.0.0.8/in',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.1.1/',
    'http://0.0.0.0/',
    'http://198.18.0.1/',
    'http://240.0.0.1/',
    'http://224.0.0.1/',
    'http://[::1]/',
    'http://[fd12::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://localhost:8080/',
  ])('refuses %s at save time', async (url) => {
    const { program, dispatcher } = await webhookProgram({ allowPrivateNetworks: false })
    await expect(program.webhooks.create({ url, events: ['referral_signed_up'] })).rejects.toMatchObject({ code: 'invalid_request', field: 'url' })
    const good = await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_signed_up'] })
    await expect(program.webhooks.update(good.id, { url })).rejects.toMatchObject({ field: 'url' })
    expect((await program.webhooks.get(good.id)).url).toBe('https://hooks.example.com/in')
  })

  it('classifies public addresses as allowed', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '100.128.0.1', '198.20.0.1']) {
      expect(isForbiddenAddress(address), address).toBe(false)
    }
  })

  it('checks the resolved address at send time, so a name that resolves to loopback is refused', async () => {
    const name = hostname()
    const resolved = await lookup(name).catch(() => null)
    // The machine name resolves to a loopback or private address on any ordinary host.
    expect(resolved && isForbiddenAddress(resolved.address)).toBe(true)
    const { program, dispatcher } = await webhookProgram({ allowPrivateNetworks: false })
    const hook = await receiver()
    const endpoint = await program.webhooks.create({ url: `http://${name}:${hook.port}/in`, events: ['referral_signed_up'] })
    await signUp(program)
    await dispatcher.dispatch()
    const [delivery] = (await program.webhooks.deliveries()).items
    const [attempt] = await program.webhooks.attempts(delivery!.id)
    expect(attempt).toMatchObject({ statusCode: null })
    expect(attempt!.error).toMatch(/refused to connect to .*private/)
    expect(hook.requests).toHaveLength(0)

    // Allowed once the project opts in to private networks.
    await program.projects.updateSettings(program.projectId, { allowPrivateNetworks: true })
    await program.webhooks.retry(delivery!.id)
    await dispatcher.dispatch()
    expect(hook.requests).toHaveLength(1)
    expect(hook.requests[0]!.headers['x-service-delivery']).toBe(String(delivery!.id))
    expect(endpoint.url).toContain(name)
  })

  it('refuses a literal private address saved while allowed, once the project no longer allows it', async () => {
    const { program, dispatcher } = await webhookProgram({ allowPrivateNetworks: true })
    const hook = await receiver()
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await program.projects.updateSettings(program.projectId, { allowPrivateNetworks: false })
    await signUp(program)
    await dispatcher.dispatch()
    const [delivery] = (await program.webhooks.deliveries()).items
    expect((await program.webhooks.attempts(delivery!.id))[0]!.error).toMatch(/refused to connect to 127\.0\.0\.1/)
    expect(hook.requests).toHaveLength(0)
  })

  it("reads the project's settings anew for every batch: allowing private networks lets a retry through", async () => {
    const { program, dispatcher } = await webhookProgram({ allowPrivateNetworks: true })
    const hook = await receiver()
    await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
    await program.projects.updateSettings(program.projectId, { allowPrivateNetworks: false, webhookRetryDelaysSeconds: [] })
    await signUp(program)
    expect(await dispatcher.dispatch()).toBe(1)
    const [refused] = (await program.webhooks.deliveries()).items
    expect(refused).toMatchObject({ status: 'failed' })
    await program.projects.updateSettings(program.projectId, { allowPrivateNetworks: true })
    await program.webhooks.retry(refused!.id)
    expect(await dispatcher.dispatch()).toBe(1)
    expect(await program.webhooks.delivery(refused!.id)).toMatchObject({ status: 'succeeded', attempts: 2 })
    expect(hook.requests).toHaveLength(1)
  })
})

describe('test delivery', () => {
  it.each(EVENT_TYPES.map((type) => [type]))('sends generated %s data synchronously, signed, and logs it', async (type) => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver(answer(200, 'thanks'))
    const endpoint = await program.webhooks.create({ url: hook.url, events: ['payout.created'], secret: 's3cret' })
    const result = await dispatcher.sendTest(program.projectId, endpoint.id, type)
    expect(result).toEqual({ success: true, status: 200, response: 'thanks' })
    expect(hook.requests).toHaveLength(1)
    const request = hook.requests[0]!
    expect(request.headers['x-service-event']).toBe(type)
    expect(await octokitVerify('s3cret', request.body, request.headers['x-service-signature'] as string)).toBe(true)
    const body = JSON.parse(request.body) as Record<string, unknown>
    expect(body).toMatchObject({ event: type, project_id: program.projectId, affiliate: { id: '0', email: 'affiliate@example.com' } })
    const member = { referral_signed_up: 'data', 'payout.created': 'payout', 'payout.requested': 'payout', 'payout.paid': 'payout', 'payout.failed': 'payout', 'portal.sign_in_requested': 'sign_in', 'affiliate.applied': 'application', 'affiliate.approved': 'application', 'affiliate.rejected': 'application', 'affiliate.tier_changed': 'tier' }[type as string] ?? 'conversion'
    expect(body[member]).toBeTypeOf('object')
    const log = await program.webhooks.deliveries({ endpointId: endpoint.id, eventType: type })
    expect(log.items).toHaveLength(1)
    expect(log.items[0]).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200 })
    expect(request.headers['x-service-delivery']).toBe(String(log.items[0]!.id))
  })

  it('reports a failing receiver without retrying, and a refused connection as status 0', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver(answer(500, 'nope'))
    const endpoint = await program.webhooks.create({ url: hook.url, events: ['payout.created'] })
    expect(await dispatcher.sendTest(program.projectId, endpoint.id, 'payout.created')).toEqual({ success: false, status: 500, response: 'nope' })
    expect((await program.webhooks.deliveries()).items[0]).toMatchObject({ status: 'failed', attempts: 1 })
    expect(await dispatcher.dispatch()).toBe(0)

    const port = await closedPort()
    await program.webhooks.update(endpoint.id, { url: `http://127.0.0.1:${port}/x` })
    const refused = await dispatcher.sendTest(program.projectId, endpoint.id, 'referral_converted')
    expect(refused).toMatchObject({ success: false, status: 0 })
    expect(refused.response).toMatch(/ECONNREFUSED/)
  })

  it('rejects an unknown event type (400) and an endpoint of another project (404), sending nothing', async () => {
    const { program, dispatcher } = await webhookProgram()
    const hook = await receiver()
    const endpoint = await program.webhooks.create({ url: hook.url, events: ['payout.created'] })
    await expect(dispatcher.sendTest(program.projectId, endpoint.id, 'nonsense' as never)).rejects.toMatchObject({ code: 'invalid_request', field: 'eventType' })
    const other = await program.projects.create({ name: 'elsewhere' })
    await expect(dispatcher.sendTest(other.id, endpoint.id, 'payout.created')).rejects.toMatchObject({ code: 'not_found' })
    await expect(dispatcher.sendTest(program.projectId, 424242, 'payout.created')).rejects.toMatchObject({ code: 'not_found' })
    await expect(dispatcher.sendTest(program.projectId, -1, 'payout.created')).rejects.toMatchObject({ code: 'invalid_request', field: 'webhookId' })
    expect(hook.requests).toHaveLength(0)
    expect((await program.webhooks.deliveries()).total).toBe(0)
  })
})
