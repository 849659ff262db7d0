// POST /affiliates/{email}/approve and /reject (docs/api.md, docs/onboarding.md), in both shapes:
// a pending affiliate approved or rejected with a reason, the application shown on the record
// (checked against the shape's response schema), affiliate.approved / affiliate.rejected
// recorded once; PUT status active approves too; scope affiliates:write; clear 4xx otherwise.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as alternative from '../../src/http/shapes/alternative-records.js'
import * as primary from '../../src/http/shapes/primary-records.js'
import { recordAllEvents, recordedEvents } from '../conformance/helpers.js'
import { setup } from '../support/http/helpers.js'

const answers = { name: 'Ann', website: 'https://ann.example', promotion: 'Newsletter', fields: { audience: '10k', discloses: true } }

async function withApplicants(shape: 'primary' | 'alternative') {
  const s = await setup({ handler: { shape } })
  await recordAllEvents(s.program)
  for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com']) await s.program.applications.apply({ email, ...answers, termsAccepted: true, signup: 'review' })
  return s
}

describe('approve and reject over REST', () => {
  it('primary: approve makes a pending affiliate active, reject blocks one with its reason, each event once', async () => {
    const s = await withApplicants('primary')
    const approved = await s.call('POST', '/affiliates/ann%40example.com/approve')
    expect(approved.status).toBe(200)
    expect(v.safeParse(primary.affiliateResponse.schema, approved.body).success).toBe(true)
    expect(approved.body.data).toMatchObject({ user_email: 'ann@example.com', status: 'active', application: { website: 'https://ann.example', fields: { audience: '10k', discloses: true }, rejection_reason: null } })
    expect(approved.body.data.application.decided_at).toBe('2026-03-01T00:00:00.000Z')
    expect((await s.call('POST', '/affiliates/ann%40example.com/approve')).status).toBe(200)

    const rejected = await s.call('POST', '/affiliates/bob%40example.com/reject', { reason: 'Not a fit for now' })
    expect(rejected.status).toBe(200)
    expect(v.safeParse(primary.affiliateResponse.schema, rejected.body).success).toBe(true)
    expect(rejected.body.data).toMatchObject({ status: 'inactive', application: { rejection_reason: 'Not a fit for now' } })
    expect((await s.program.affiliates.get('bob@example.com')).status).toBe('blocked')

    const again = await s.call('POST', '/affiliates/bob%40example.com/reject', {})
    expect(again.status).toBe(409)
    expect(again.body.error).toContain('only a pending affiliate can be rejected')
    expect((await s.call('POST', '/affiliates/ann%40example.com/reject', {})).status).toBe(409)
    expect((await s.call('POST', '/affiliates/bob%40example.com/approve')).status).toBe(409)
    expect((await s.call('POST', '/affiliates/nobody%40example.com/approve')).status).toBe(404)
    expect((await s.call('POST', '/affiliates/cy%40example.com/reject', { reason: 42 })).status).toBe(400)
    expect((await s.call('POST', '/affiliates/cy%40example.com/reject', { reason: 'x'.repeat(1001) })).status).toBe(400)
    expect((await s.call('POST', '/affiliates/cy%40example.com/reject', { why: 'no' })).status).toBe(400)
    expect((await s.call('POST', '/affiliates/cy%40example.com/reject', undefined, { raw: 'nope' })).status).toBe(400)
    expect((await s.program.affiliates.get('cy@example.com')).status).toBe('pending')

    const events = (await recordedEvents(s.storage, s.program)).filter((event) => event.type !== 'affiliate.applied')
    expect(events.map((event) => event.type)).toEqual(['affiliate.approved', 'affiliate.rejected'])
    expect(events[1]!.body).toMatchObject({ event: 'affiliate.rejected', affiliate: { email: 'bob@example.com' }, application: { reason: 'Not a fit for now' } })
  })

  it('primary: PUT status active approves a pending affiliate (affiliate.approved), once', async () => {
    const s = await withApplicants('primary')
    const put = await s.call('PUT', '/affiliates/cy%40example.com', { status: 'active' })
    expect(put.status).toBe(200)
    expect(put.body.data).toMatchObject({ status: 'active', application: { rejection_reason: null } })
    expect(put.body.data.application.decided_at).not.toBeNull()
    expect((await s.call('PUT', '/affiliates/cy%40example.com', { status: 'active' })).status).toBe(200)
    expect((await recordedEvents(s.storage, s.program)).map((event) => event.type)).toEqual(['affiliate.applied', 'affiliate.applied', 'affiliate.applied', 'affiliate.approved'])
  })

  it('alternative: by email or aff_ id, with the application in camelCase', async () => {
    const s = await withApplicants('alternative')
    const approved = await s.call('POST', '/affiliates/aff_1/approve')
    expect(approved.status).toBe(200)
    expect(v.safeParse(alternative.affiliateResponse.schema, approved.body).success).toBe(true)
    expect(approved.body.data.affiliate).toMatchObject({ id: 'aff_1', status: 'active', application: { website: 'https://ann.example', rejectionReason: null } })
    const rejected = await s.call('POST', '/affiliates/bob%40example.com/reject', { reason: 'Spam' })
    expect(rejected.status).toBe(200)
    expect(rejected.body.data.affiliate).toMatchObject({ status: 'blocked', application: { rejectionReason: 'Spam' } })
    const refused = await s.call('POST', '/affiliates/aff_2/reject', {})
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatchObject({ details: { field: 'status' } })
    const listed = await s.call('GET', '/affiliates?status=pending')
    expect(listed.body.data.affiliates.map((affiliate: { email: string }) => affiliate.email)).toEqual(['cy@example.com'])
  })

  it('needs affiliates:write', async () => {
    const s = await withApplicants('primary')
    const reader = await s.keyWith(['affiliates:read'])
    expect((await s.call('POST', '/affiliates/ann%40example.com/approve', undefined, { key: reader })).status).toBe(403)
    expect((await s.call('POST', '/affiliates/ann%40example.com/reject', { reason: 'no' }, { key: reader })).status).toBe(403)
    expect((await s.program.affiliates.get('ann@example.com')).status).toBe('pending')
  })
})
