// An affiliate's `locale` over REST in both shapes (docs/api.md, docs/email.md "Languages"):
// set at create, changed and cleared by PUT, shown on the record; a language we do not have is a
// 400 naming the field, and changes nothing.
import { describe, expect, test } from 'vitest'
import { setup } from '../support/http/helpers.js'

describe('locale over REST', () => {
  test('primary shape: create, read, change, clear, refuse', async () => {
    const s = await setup()
    const created = await s.call('POST', '/affiliates', { email: 'ann@example.com', locale: 'de' })
    expect(created.status).toBe(201)
    expect((await s.call('GET', '/affiliates/ann%40example.com')).body.data.locale).toBe('de')
    expect((await s.call('PUT', '/affiliates/ann%40example.com', { locale: 'fr' })).body.data.locale).toBe('fr')
    const refused = await s.call('PUT', '/affiliates/ann%40example.com', { locale: 'it' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('locale')
    expect((await s.program.affiliates.get('ann@example.com')).locale).toBe('fr')
    expect((await s.call('PUT', '/affiliates/ann%40example.com', { locale: null })).body.data.locale).toBeNull()
  })

  test('alternative shape: create, read, change, refuse', async () => {
    const s = await setup({ handler: { shape: 'alternative' } })
    const created = await s.call('POST', '/affiliates', { email: 'eva@example.com', name: 'Eva', locale: 'es' })
    expect(created.status).toBe(201)
    expect(created.body.data.affiliate.locale).toBe('es')
    expect((await s.call('PUT', '/affiliates/eva%40example.com', { locale: 'en' })).body.data.affiliate.locale).toBe('en')
    expect((await s.call('POST', '/affiliates', { email: 'x@example.com', name: 'X', locale: 'EN-us' })).status).toBe(400)
    expect((await s.call('GET', '/affiliates/x%40example.com')).status).toBe(404)
  })
})
