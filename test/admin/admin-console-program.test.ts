// Running a program from the admin console alone, over plain fetch: an empty program leads to
// its first affiliate, affiliates are created and coupons created and turned off through the
// program (same validation as the API, refused input shown as typed, CSRF, an audit entry per
// action), the settings page shows the rules the program applies, the dashboard compares this
// month with the last, and affiliates and conversions export as CSV with every cell guarded.
import { describe, expect, it } from 'vitest'
import { adminFixture, Agent, owedAffiliate, signedInAgent, type AdminFixture } from '../support/admin/helpers.js'

const auditActions = async (fixture: AdminFixture) =>
  (await fixture.storage.auditLog.list(fixture.program.projectId, { limit: 100, offset: 0 })).items.map((entry) => [entry.action, entry.target, entry.detail])

/** The records of an RFC 4180 CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') (field += '"'), (index += 1)
      else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') row.push(field), (field = '')
    else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field), rows.push(row), (row = []), (field = ''), (index += 1)
    } else field += char
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows
}

/** POSTs a form and returns the answer's CSV records. */
async function download(agent: Agent, path: string, fields: Record<string, string>): Promise<{ response: Response; rows: string[][] }> {
  const response = await agent.post(path, fields)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  return { response, rows: parseCsv(await response.text()) }
}

describe('admin console: affiliates from an empty program', () => {
  it('leads an empty program to its first affiliate, creates it through the program and audit-logs it', async () => {
    const fixture = await adminFixture()
    const agent = await signedInAgent(fixture)
    for (const path of ['/admin/', '/admin/dashboard']) {
      const page = await (await agent.get(path)).text()
      expect(page).toContain('No affiliates yet')
      expect(page).toContain('<a class="button" href="/admin/affiliates/new">Create your first affiliate</a>')
    }
    const csrf = await agent.csrfOf('/admin/affiliates/new')
    const created = await agent.post('/admin/affiliates/new', { csrf, email: ' ann@example.com ', name: 'Ann', referralCode: '', status: 'pending', partnerSlug: '' })
    expect(created.status).toBe(303)
    const [ann] = (await fixture.program.affiliates.list()).items
    expect(ann).toMatchObject({ email: 'ann@example.com', name: 'Ann', status: 'pending', partnerSlug: null })
    expect(ann!.referralCode).toMatch(/^[A-Za-z0-9]{4,}$/)
    expect(created.headers.get('location')).toBe(`/admin/affiliates/${ann!.id}?created=1`)
    expect(await (await agent.get(created.headers.get('location')!)).text()).toContain(`The affiliate is created. Their referral code is <strong>${ann!.referralCode}</strong>`)
    // With an affiliate, the list is shown, with a way to add more.
    const list = await (await agent.get('/admin/')).text()
    expect(list).not.toContain('No affiliates yet')
    expect(list).toContain('data-affiliate="ann@example.com"')
    expect(list).toContain('href="/admin/affiliates/new">Add an affiliate</a>')
    expect((await auditActions(fixture))[0]).toEqual(['affiliate.create', `affiliate:${ann!.id}`, `ann@example.com (pending, code ${ann!.referralCode})`])
  })

  it('shows refused input again as typed, marks the field, and creates nothing', async () => {
    const fixture = await adminFixture()
    await fixture.program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
    const agent = await signedInAgent(fixture)
    const csrf = await agent.csrfOf('/admin/affiliates/new')
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ email: 'not-an-email', referralCode: 'NEW1', status: 'active' }, 400, 'new-email'],
      [{ email: 'bob@example.com', status: 'active' }, 409, 'new-email'],
      [{ email: 'new@example.com', referralCode: 'BOB', status: 'active' }, 409, 'new-referralCode'],
      [{ email: 'new@example.com', referralCode: 'has space', status: 'active' }, 400, 'new-referralCode'],
      [{ email: 'new@example.com', status: 'owner' }, 400, 'new-status'],
      [{ email: 'new@example.com', status: 'active', partnerSlug: 'nowhere' }, 400, 'new-partnerSlug'],
    ]
    for (const [fields, status, invalid] of cases) {
      const response = await agent.post('/admin/affiliates/new', { csrf, ...fields })
      const text = await response.text()
      expect([fields, response.status]).toEqual([fields, status])
      expect(text).toContain('Nothing was changed')
      expect(text).toContain(`value="${fields.email}"`)
      expect(text).toMatch(new RegExp(`id="${invalid}"[^>]*aria-invalid="true"`))
    }
    expect((await agent.post('/admin/affiliates/new', { email: 'csrf@example.com', status: 'active' })).status).toBe(403)
    expect((await fixture.program.affiliates.list()).total).toBe(1)
    expect((await auditActions(fixture)).map(([action]) => action)).toEqual(['console.sign_in'])
  })
})

describe('admin console: coupons', () => {
  it('creates a coupon for an affiliate, lists it, turns it off so it credits no sale, and audit-logs each', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    const agent = await signedInAgent(fixture)
    expect(await (await agent.get('/admin/coupons')).text()).toContain('No coupons yet')
    const csrf = await agent.csrfOf('/admin/coupons')
    const created = await agent.post('/admin/coupons', { csrf, code: 'ANN10', affiliate: 'ann@example.com', discountType: 'percentage', discountValue: '10', processorCouponId: 'promo_123' })
    expect([created.status, created.headers.get('location')]).toEqual([303, '/admin/coupons?created=1'])
    const [coupon] = (await program.coupons.list()).items
    expect(coupon).toMatchObject({ code: 'ANN10', affiliateId: ann.id, status: 'active', discountType: 'percentage', discountValue: '10', processorCouponId: 'promo_123' })
    const page = await (await agent.get('/admin/coupons?created=1')).text()
    expect(page).toContain('The coupon is created.')
    expect(page).toMatch(/data-coupon="ANN10">.*ann@example\.com.*10% off.*promo_123.*data-status="active"/s)
    // Attributes a sale while active.
    expect((await program.conversions.create({ type: 'purchase', baseValue: 10, couponCodeUsed: 'ANN10', reference: 'with-coupon' })).conversion.affiliateId).toBe(ann.id)

    const off = await agent.post(`/admin/coupons/${coupon!.id}/status`, { csrf, status: 'inactive' })
    expect([off.status, off.headers.get('location')]).toEqual([303, '/admin/coupons?changed=inactive'])
    expect((await program.coupons.get(coupon!.id)).status).toBe('inactive')
    await expect(program.conversions.create({ type: 'purchase', baseValue: 10, couponCodeUsed: 'ANN10', reference: 'after-off' })).rejects.toThrow(/not found/)
    expect(await (await agent.get('/admin/coupons?status=inactive')).text()).toContain('data-coupon="ANN10"')
    expect(await (await agent.get('/admin/coupons?status=active')).text()).toContain('No coupon matches.')
    // Turning off twice changes nothing more; turning on again works.
    expect((await agent.post(`/admin/coupons/${coupon!.id}/status`, { csrf, status: 'inactive' })).status).toBe(303)
    expect((await agent.post(`/admin/coupons/${coupon!.id}/status`, { csrf, status: 'active' })).status).toBe(303)
    expect((await program.coupons.get(coupon!.id)).status).toBe('active')
    expect((await auditActions(fixture)).slice(0, 3)).toEqual([
      ['coupon.activate', `coupon:${coupon!.id}`, 'ANN10'],
      ['coupon.deactivate', `coupon:${coupon!.id}`, 'ANN10'],
      ['coupon.create', `coupon:${coupon!.id}`, 'ANN10 for ann@example.com'],
    ])
  })

  it('answers bad coupon input with a 4xx, shown as typed, and changes nothing', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const taken = await program.coupons.create({ affiliateId: ann.id, code: 'TAKEN' })
    const agent = await signedInAgent(fixture)
    const csrf = await agent.csrfOf('/admin/coupons')
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ code: 'NEW', affiliate: 'nobody@example.com', discountType: '' }, 400, 'coupon-affiliate'],
      [{ code: 'NEW', affiliate: '999', discountType: '' }, 400, 'coupon-affiliate'],
      [{ code: 'TAKEN', affiliate: 'ann@example.com', discountType: '' }, 409, 'coupon-code'],
      [{ code: 'two words', affiliate: 'ann@example.com', discountType: '' }, 400, 'coupon-code'],
      [{ code: 'NEW', affiliate: 'ann@example.com', discountType: 'bogus' }, 400, 'coupon-type'],
      [{ code: 'NEW', affiliate: 'ann@example.com', discountType: 'fixed', discountValue: 'x'.repeat(51) }, 400, 'coupon-value'],
    ]
    for (const [fields, status, invalid] of cases) {
      const response = await agent.post('/admin/coupons', { csrf, ...fields })
      const text = await response.text()
      expect([fields.code, fields.affiliate, response.status]).toEqual([fields.code, fields.affiliate, status])
      expect(text).toContain('Nothing was changed')
      expect(text).toContain(`value="${fields.affiliate}"`)
      expect(text).toMatch(new RegExp(`id="${invalid}"[^>]*aria-invalid="true"`))
    }
    expect((await agent.post(`/admin/coupons/${taken.id}/status`, { csrf, status: 'deleted' })).status).toBe(400)
    expect((await agent.post('/admin/coupons/999/status', { csrf, status: 'inactive' })).status).toBe(404)
    expect((await agent.post(`/admin/coupons/${taken.id}/status`, { status: 'inactive' })).status).toBe(403)
    expect((await agent.get('/admin/coupons?status=gone')).status).toBe(400)
    expect((await agent.get('/admin/coupons?affiliate=nobody@example.com')).status).toBe(400)
    expect((await program.coupons.list()).items.map((coupon) => [coupon.code, coupon.status])).toEqual([['TAKEN', 'active']])
    expect((await auditActions(fixture)).map(([action]) => action)).toEqual(['console.sign_in'])
  })
})

describe('admin console: settings and dashboard', () => {
  it("shows the program's settings as it applies them, read only", async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    await program.projects.updateSettings(program.projectId, {
      currency: 'EUR',
      holdPeriodDays: 14,
      timeZone: 'Europe/Paris',
      commission: { purchase: { type: 'percentage', rate: 25 }, signup: { amount: '2.50' }, recurring: { rate: 10, durationMonths: 12 } },
      multiTier: { enabled: true, tier2Rate: 5 },
      subPrograms: { vip: { commission: { purchase: { type: 'fixed', amount: '40.00' } } } },
      attribution: { model: 'last_click', windowDays: 30 },
      webhookRetryDelaysSeconds: [10, 600],
      fraud: { paidAdsClick: 'reject', amountAbove: { amount: '900.00', action: 'review' } },
    })
    const agent = await signedInAgent(fixture)
    const page = await (await agent.get('/admin/settings')).text()
    const setting = (name: string) => new RegExp(`data-setting="${name.replace('.', '\\.')}">([^<]*)<`).exec(page)?.[1]
    expect(setting('currency')).toBe('EUR')
    expect(setting('holdPeriodDays')).toBe('14 days before a commission can be paid')
    expect(setting('timeZone')).toBe('Europe/Paris')
    expect(setting('purchase')).toBe('25 % of the sale')
    expect(setting('signup')).toBe('2.50 EUR a signup')
    expect(setting('recurring')).toBe('10 % of each payment, for 12 months from the first purchase')
    expect(setting('multiTier')).toBe("On: the referring affiliate&#39;s parent earns 5 %")
    expect(setting('vip.purchase')).toBe('40.00 EUR a sale')
    expect(setting('attribution')).toBe('Last click keeps the customer; a referral counts 30 days')
    expect(setting('webhookRetryDelaysSeconds')).toBe('10 seconds, 10 minutes')
    expect(setting('fraud.selfReferral')).toBe('Held for review')
    expect(setting('fraud.sameVisitor')).toBe('Allowed')
    expect(setting('fraud.paidAdsClick')).toBe('Rejected')
    expect(setting('fraud.amountAbove')).toBe('900.00 EUR: held for review')
    expect(setting('fraud.signupsPerVisitorPerDay')).toBe('Not checked')
    expect(page).not.toMatch(/<form[^>]*method="post"[^>]*action="\/admin\/settings"/)
    expect((await agent.post('/admin/settings', { csrf: await agent.csrfOf('/admin/settings'), currency: 'USD' })).status).toBe(405)
    expect((await program.settings()).currency).toBe('EUR')
  })

  it('compares this month so far with last month and shows what is owed now', async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture // 2026-02-01, hold period 30 days, 30 % of purchases
    const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    await program.affiliates.create({ email: 'pending@example.com', status: 'pending' })
    // February: 3 clicks, a referred signup who pays 100.00, and a sale of 50.00 to a new customer
    // (a sale credited to an affiliate makes its customer a referred one: 2 signups).
    for (let n = 0; n < 3; n += 1) await program.trackClick({ referralCode: 'ANN' })
    await program.referrals.create({ email: 'feb@example.com', referralCode: 'ANN' })
    await program.conversions.create({ type: 'purchase', email: 'feb@example.com', baseValue: 100, reference: 'feb-1' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'other@example.com', baseValue: 50, reference: 'feb-2' })
    clock.advance({ days: 35 }) // 2026-03-08
    // March so far: 1 click, a referred signup who has not paid, a sale of 19.99 to a new customer.
    await program.trackClick({ referralCode: 'ANN' })
    await program.referrals.create({ email: 'mar@example.com', referralCode: 'ANN' })
    await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: 'third@example.com', baseValue: 19.99, reference: 'mar-1' })
    await program.payouts.create({ affiliateId: ann.id, amount: '10.00' })

    const agent = await signedInAgent(fixture)
    const page = await (await agent.get('/admin/dashboard')).text()
    const measure = (name: string) => {
      const row = new RegExp(`data-measure="${name}">(.*?)</tr>`, 's').exec(page)![1]!
      return [...row.matchAll(/<td class="num"[^>]*>([^<]*)</g)].map((match) => match[1])
    }
    expect(page).toContain('<caption class="skip">March 2026 to 2026-03-08 against February 2026</caption>')
    expect(measure('clicks')).toEqual(['1', '3', '−2'])
    expect(measure('signups')).toEqual(['2', '2', '±0'])
    expect(measure('purchases')).toEqual(['1', '2', '−1'])
    expect(page).toContain('<th scope="row">Revenue (USD)</th>')
    expect(measure('revenue')).toEqual(['19.99', '150.00', '−130.01'])
    expect(measure('commission')).toEqual(['6.00', '45.00', '−39.00'])
    const figure = (name: string) => new RegExp(`data-figure="${name}">([^<]*)<`).exec(page)![1]
    expect(figure('affiliates')).toBe('1')
    expect(figure('pending')).toBe('1')
    expect(figure('customers')).toBe('3')
    expect(figure('referred')).toBe('1')
    // 45.00 + 6.00 earned, 10.00 paid: 41.00 owed, of which 35.00 is past the hold period (no payout terms: payable).
    expect(figure('owed')).toBe('41.00 USD')
    expect(figure('payable')).toBe('35.00 USD')
  })
})

describe('admin console: CSV exports', () => {
  it('exports the searched affiliates with every text cell guarded against formulas, audit-logged', async () => {
    const fixture = await adminFixture()
    const { program } = fixture
    const ann = await owedAffiliate(program, '=ann@example.com', [49, 100.1], { name: '=HYPERLINK("http://evil.test","click")' }) // 44.73
    const bob = await program.affiliates.create({ email: 'bob@example.com', name: 'Bob, "the builder"\nSmith', referralCode: 'BOB', status: 'pending' })
    await program.affiliates.create({ email: 'cy@example.com', name: '@cy', status: 'blocked' })
    const agent = await signedInAgent(fixture)
    const csrf = await agent.csrfOf('/admin/')
    const { response, rows } = await download(agent, '/admin/affiliates/export', { csrf, q: '', status: '' })
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="affiliates-2026-02-01.csv"')
    const [header, ...records] = rows
    expect(header).toEqual(['id', 'email', 'name', 'referral_code', 'status', 'partner_slug', 'payout_method', 'paypal_email', 'clicks', 'signups', 'purchases', 'currency', 'held', 'eligible', 'paid', 'unpaid', 'created_at'])
    const byId = new Map(records.map((record) => [record[0], Object.fromEntries(header!.map((name, index) => [name, record[index]]))]))
    expect(byId.get(String(ann.id))).toMatchObject({ email: "'=ann@example.com", name: `'=HYPERLINK("http://evil.test","click")`, status: 'active', held: '44.73', unpaid: '44.73', purchases: '2' })
    expect(byId.get(String(bob.id))).toMatchObject({ name: 'Bob, "the builder"\nSmith', referral_code: 'BOB', status: 'pending', unpaid: '0.00' })
    expect([...byId.values()].find((record) => record.email === 'cy@example.com')).toMatchObject({ name: "'@cy", status: 'blocked' })
    expect(records).toHaveLength(3)
    // The page's search and status filter decide the rows.
    expect((await download(agent, '/admin/affiliates/export', { csrf, q: 'builder', status: '' })).rows.slice(1).map((record) => record[1])).toEqual(['bob@example.com'])
    expect((await download(agent, '/admin/affiliates/export', { csrf, q: '', status: 'blocked' })).rows.slice(1).map((record) => record[1])).toEqual(['cy@example.com'])
    expect((await agent.post('/admin/affiliates/export', { csrf, status: 'gone' })).status).toBe(400)
    expect((await agent.post('/admin/affiliates/export', { q: '' })).status).toBe(403)
    expect((await auditActions(fixture)).slice(0, 3)).toEqual([
      ['affiliates.export', null, '1 rows, status blocked'],
      ['affiliates.export', null, '1 rows, search "builder"'],
      ['affiliates.export', null, '3 rows'],
    ])
  })

  it('exports every page of the filtered conversions to the cent, every cell guarded, audit-logged', async () => {
    const fixture = await adminFixture()
    const { program, clock } = fixture
    const ann = await program.affiliates.create({ email: 'ann@example.com' })
    const bob = await program.affiliates.create({ email: 'bob@example.com' })
    for (let n = 0; n < 60; n += 1) {
      await program.conversions.create({ type: 'purchase', affiliateId: ann.id, email: `buyer${n}@example.com`, baseValue: '10.01', reference: `ann-${n}` })
    }
    const formula = await program.conversions.create({ type: 'purchase', affiliateId: bob.id, email: 'bob-buyer@example.com', baseValue: 99.99, reference: '=cmd|"/c calc"!A1' })
    await program.conversions.update(formula.conversion.id, { refundAmount: '33.33', reason: 'partial' })
    clock.advance({ days: 1 })
    await program.conversions.create({ type: 'purchase', affiliateId: bob.id, email: 'later@example.com', baseValue: 5, reference: 'next-day' })
    const agent = await signedInAgent(fixture)
    const page = await (await agent.get('/admin/conversions?affiliate=ann%40example.com')).text()
    expect(page).toMatch(/<form method="post" action="\/admin\/conversions\/export">.*name="affiliate" value="ann@example.com".*Export CSV/s)
    const csrf = await agent.csrfOf('/admin/conversions')
    const none = { status: '', affiliate: '', type: '', from: '', to: '' }

    const all = await download(agent, '/admin/conversions/export', { csrf, ...none })
    const [header, ...records] = all.rows
    expect(header).toEqual(['id', 'created_at', 'affiliate_id', 'affiliate_email', 'type', 'customer_email', 'reference', 'sale_amount', 'sale_currency', 'refunded', 'commission', 'currency', 'status', 'hold_until', 'paid'])
    expect(records).toHaveLength(62)
    const row = records.find((record) => record[0] === String(formula.conversion.id))!
    expect(row).toEqual([
      String(formula.conversion.id),
      '2026-02-01T00:00:00.000Z',
      String(bob.id),
      'bob@example.com',
      'purchase',
      'bob-buyer@example.com',
      `'=cmd|"/c calc"!A1`,
      '99.99',
      'USD',
      '33.33',
      '20.00',
      'USD',
      'pending',
      '2026-03-03T00:00:00.000Z',
      'no',
    ])
    // Commission to the cent: 60 × 3.00 + 20.00 + 1.50.
    const cents = records.reduce((sum, record) => sum + BigInt(record[10]!.replace('.', '')), 0n)
    expect(cents).toBe(20_150n)

    const annOnly = await download(agent, '/admin/conversions/export', { csrf, ...none, affiliate: 'ann@example.com' })
    expect(annOnly.rows.slice(1).every((record) => record[3] === 'ann@example.com')).toBe(true)
    expect(annOnly.rows).toHaveLength(61)
    const secondDay = await download(agent, '/admin/conversions/export', { csrf, ...none, from: '2026-02-02', to: '2026-02-02' })
    expect(secondDay.rows.slice(1).map((record) => record[6])).toEqual(['next-day'])
    expect((await agent.post('/admin/conversions/export', { csrf, ...none, from: '2026-02-31' })).status).toBe(400)
    expect((await agent.post('/admin/conversions/export', { ...none })).status).toBe(403)
    expect((await auditActions(fixture)).slice(0, 3)).toEqual([
      ['conversions.export', null, '1 rows, from 2026-02-02, to 2026-02-02'],
      ['conversions.export', null, '60 rows, affiliate ann@example.com'],
      ['conversions.export', null, '62 rows'],
    ])
  })
})
