// Portal test helpers: a program on memory storage with a test clock, its portal, affiliates
// with conversions, refunds, a payout and a coupon; and a cookie-keeping client for plain fetch.
import { memoryStorage } from '../../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock, type AffiliateProgram, type LinkOptions, type TestClock } from '../../../src/index.js'
import { createPortal, type Portal, type PortalOptions } from '../../../src/portal/index.js'

export const ORIGIN = 'http://portal.test'

export interface PortalFixture {
  program: AffiliateProgram
  portal: Portal
  clock: TestClock
  storage: ReturnType<typeof memoryStorage>
}

/** `links`: the program's links option (docs/links.md), for pages that show short links. */
export async function portalFixture(options: Partial<PortalOptions> = {}, links?: LinkOptions): Promise<PortalFixture> {
  const clock = testClock('2026-02-01T00:00:00Z')
  const storage = memoryStorage()
  const program = await createAffiliateProgram({
    storage,
    clock,
    settings: { currency: 'USD', holdPeriodDays: 30, commission: { purchase: { type: 'percentage', rate: 30 } } },
    ...(links ? { links } : {}),
  })
  const portal = createPortal(program, { sessions: storage, ...options })
  return { program, portal, clock, storage }
}

/** An affiliate with earnings in every state: paid, eligible, held, partly refunded, refunded. */
export async function affiliateWithHistory(program: AffiliateProgram, clock: TestClock, email: string, code: string) {
  const affiliate = await program.affiliates.create({ email, referralCode: code, name: `Name of ${code}` })
  const sale = (n: number, base: number) =>
    program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, email: `buyer${n}-${code.toLowerCase()}@example.com`, baseValue: base, reference: `${code}-${n}` })
  await sale(1, 49) // 14.70
  await sale(2, 100.1) // 30.03
  const refunded = await sale(3, 20) // 6.00, refunded in full
  await program.conversions.update(refunded.conversion.id, { status: 'refunded', reason: 'customer asked' })
  clock.advance({ days: 31 })
  await program.payouts.create({ affiliateId: affiliate.id, amount: '14.70', method: 'paypal' })
  const partial = await sale(4, 99.99) // 30.00 less a partial refund
  await program.conversions.update(partial.conversion.id, { refundAmount: '33.33' })
  await sale(5, 10) // 3.00, held
  await program.coupons.create({ affiliateId: affiliate.id, code: `${code}10`, discountType: 'percentage', discountValue: '10' })
  return { affiliate, partialId: partial.conversion.id, refundedId: refunded.conversion.id }
}

/** Keeps cookies like a browser (per name; Max-Age=0 deletes) and speaks forms. */
export class Agent {
  readonly cookies = new Map<string, string>()
  constructor(private readonly handler: (request: Request) => Promise<Response>, private readonly origin = ORIGIN) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    const response = await this.handler(new Request(new URL(path, this.origin), { ...init, headers, redirect: 'manual' }))
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const index = pair!.indexOf('=')
      const name = pair!.slice(0, index)
      if (/Max-Age=0/.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, pair!.slice(index + 1))
    }
    return response
  }

  get(path: string): Promise<Response> {
    return this.request(path)
  }

  post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })
  }

  /** GETs a page and returns the value of the hidden `csrf` field of its first form. */
  async csrfOf(path: string): Promise<string> {
    const text = await (await this.get(path)).text()
    const match = /name="csrf" value="([^"]+)"/.exec(text)
    if (!match) throw new Error(`no csrf field on ${path}`)
    return match[1]!
  }

  /** Opens a sign-in link and confirms it; resolves with the confirming response. */
  async signIn(link: string): Promise<Response> {
    const page = await (await this.get(link)).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const token = new URL(link, this.origin).searchParams.get('token') ?? ''
    return this.post('/portal/sign-in', { csrf, token })
  }
}
