// Admin console test helpers: the portal fixture (a program on memory storage with a test clock,
// its portal) plus the console and an admin key; affiliates owed money; sign-in through the form.
import type { memoryStorage } from '../../../src/adapters/memory/index.js'
import { createAdminConsole, type AdminConsole, type AdminConsoleOptions } from '../../../src/admin/index.js'
import type { AffiliateProgram, LinkOptions, TestClock } from '../../../src/index.js'
import type { Portal } from '../../../src/portal/index.js'
import { Agent, portalFixture } from '../portal/helpers.js'

export interface AdminFixture {
  program: AffiliateProgram
  admin: AdminConsole
  portal: Portal
  clock: TestClock
  storage: ReturnType<typeof memoryStorage>
  /** A key with scope * named "Owner". */
  adminKey: string
}

/** `links`: the program's links option (docs/links.md), for pages that show short links. */
export async function adminFixture(options: Partial<AdminConsoleOptions> = {}, links?: LinkOptions): Promise<AdminFixture> {
  const { program, portal, clock, storage } = await portalFixture({}, links)
  const admin = createAdminConsole(program, { sessions: storage, auditLog: storage, ...options })
  const { key } = await program.keys.create({ name: 'Owner', scopes: ['*'] })
  return { program, admin, portal, clock, storage, adminKey: key }
}

/** Opens the sign-in page and posts the key; resolves with the answer. */
export async function signInWithKey(agent: Agent, key: string): Promise<Response> {
  const csrf = await agent.csrfOf('/admin/sign-in')
  return agent.post('/admin/sign-in', { csrf, key })
}

export async function signedInAgent(fixture: AdminFixture): Promise<Agent> {
  const agent = new Agent(fixture.admin)
  const response = await signInWithKey(agent, fixture.adminKey)
  if (response.status !== 303) throw new Error(`admin sign-in answered ${response.status}`)
  return agent
}

/** An affiliate with `sales` released purchases (30% commission each), owed after the hold. */
export async function owedAffiliate(program: AffiliateProgram, email: string, sales: number[], extra: { paypalEmail?: string; name?: string } = {}) {
  const affiliate = await program.affiliates.create({ email, ...(extra.name ? { name: extra.name } : {}), ...(extra.paypalEmail ? { paypalEmail: extra.paypalEmail, payoutMethod: 'paypal' as const } : {}) })
  for (const [index, base] of sales.entries()) {
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: `buyer${index}-${email}`, baseValue: base, reference: `${email}-${index}` })
  }
  return affiliate
}

/** The non-empty lines of the payout file (`paypal`, `wise`) the console exports for these affiliates, each for all it is owed. */
export async function exportedPayoutFile(agent: Agent, program: AffiliateProgram, affiliates: Array<{ id: number }>, format: string): Promise<string[]> {
  const fields = new URLSearchParams({ csrf: await agent.csrfOf('/admin/payouts'), format })
  for (const { id } of affiliates) {
    fields.append('affiliate', String(id))
    fields.append(`amount_${id}`, (await program.affiliates.get(id)).earnings.eligible)
  }
  const response = await agent.request('/admin/payouts/export', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() })
  if (response.status !== 200) throw new Error(`payout export answered ${response.status}`)
  return (await response.text()).split('\r\n').filter(Boolean)
}

export { Agent }
