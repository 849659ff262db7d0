// The page tables of the console and the portal: each URL once, routing, Allow lists, links and
// navigation all read from them.
import { describe, expect, it } from 'vitest'
import { ADMIN_PAGES, adminPaths } from '../../src/admin/routes.js'
import { PORTAL_PAGES, PORTAL_PUBLIC_PAGES, portalPaths } from '../../src/portal/routes.js'
import { linkTo, matchPage, tableLinks, tableMethods, tableNav } from '../../src/web/page-table.js'

const versions = { stylesheet: 's1', script: 'j1' }

describe('page tables', () => {
  it('list each path and each link name once', () => {
    for (const table of [ADMIN_PAGES, PORTAL_PAGES, PORTAL_PUBLIC_PAGES]) {
      const paths = table.map((row) => row.path)
      expect(new Set(paths).size).toBe(paths.length)
      const names = table.flatMap((row) => (row.name ? [row.name] : []))
      expect(new Set(names).size).toBe(names.length)
    }
  })

  it('match a path with its id, and answer only the methods a row has', () => {
    const refund = matchPage(ADMIN_PAGES, '/conversions/42/refund', 'POST')
    expect(refund?.row.path).toBe('/conversions/:id/refund')
    expect(refund?.id).toBe(42)
    expect(matchPage(ADMIN_PAGES, '/conversions/42/refund', 'GET')).toBeNull()
    expect(tableMethods(ADMIN_PAGES, '/affiliates/7')).toEqual(['GET', 'POST'])
    expect(tableMethods(ADMIN_PAGES, '/affiliates/export')).toEqual(['POST'])
    expect(tableMethods(ADMIN_PAGES, '/affiliates/0')).toBeNull()
    expect(tableMethods(ADMIN_PAGES, '/affiliates/7/nothing')).toBeNull()
    // The portal's conversion page takes the segment as written and answers a bad one itself.
    const conversion = matchPage(PORTAL_PAGES, '/conversions/abc', 'GET')
    expect(conversion?.ref).toBe('abc')
    expect(tableMethods(PORTAL_PAGES, '/settings')).toEqual(['GET', 'POST'])
  })

  it('build the links pages use, under the mount path', () => {
    const admin = adminPaths('/admin', versions)
    expect(admin.affiliates).toBe('/admin/')
    expect(admin.conversionRefund(42)).toBe('/admin/conversions/42/refund')
    expect(admin.webhookRotate(3)).toBe('/admin/webhooks/3/rotate-secret')
    expect(admin.stylesheet).toBe('/admin/assets/admin.css?v=s1')
    const atRoot = portalPaths('', versions)
    expect(atRoot.overview).toBe('/')
    expect(atRoot.conversion(5)).toBe('/conversions/5')
    expect(Object.keys(tableLinks(PORTAL_PAGES, ''))).toEqual(['overview', 'analytics', 'conversions', 'conversion', 'links', 'linkDelete', 'linkQr', 'payouts', 'stripeConnect', 'settings', 'tax'])
    expect([atRoot.links, atRoot.linkDelete(7), atRoot.linkQr(7)]).toEqual(['/links', '/links/7/delete', '/links/7/qr'])
    expect(linkTo('/p', '/conversions/:ref', 'x')).toBe('/p/conversions/x')
    const portal = portalPaths('/portal', versions)
    expect([portal.apply, portal.applyGroup('creators')]).toEqual(['/portal/apply', '/portal/apply/creators'])
    expect(tableMethods(PORTAL_PUBLIC_PAGES, '/apply/creators')).toEqual(['GET', 'POST'])
  })

  it('draw the navigation in table order and mark the current page', () => {
    const nav = tableNav(ADMIN_PAGES, '/admin', '/admin/payouts')
    expect(nav.map((item) => item.label)).toEqual(['Dashboard', 'Analytics', 'Affiliates', 'Applications', 'Coupons', 'Review', 'Conversions', 'Payouts', 'Due', 'Pay now', 'Webhooks', 'Emails', 'API keys', 'Provider events', 'Audit log', 'Settings'])
    expect(nav.filter((item) => item.current).map((item) => item.href)).toEqual(['/admin/payouts'])
    expect(tableNav(PORTAL_PAGES, '/portal', '/portal/').map((item) => [item.label, item.current])).toEqual([
      ['Overview', true],
      ['Analytics', false],
      ['Conversions', false],
      ['Links', false],
      ['Payouts', false],
      ['Settings', false],
    ])
  })
})
