// The portal's overview page per second for an affiliate with 100,000 conversions, next to the
// API's GET /affiliates/:email for the same affiliate in the same run (target >= 50%). Both are
// Fetch handlers called in-process on the memory adapter (the built dist/; `npm run build` first);
// rounds alternate between the two and medians are reported. Asserts nothing.
import { memoryStorage } from '../dist/adapters/memory.js'
import { createHandler } from '../dist/http/index.js'
import { createAffiliateProgram, testClock } from '../dist/index.js'
import { createPortal } from '../dist/portal/index.js'

const CONVERSIONS = 100_000
const ROUNDS = 7
const DURATION_MS = 1000
const ORIGIN = 'http://bench.test'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const clock = testClock('2026-01-01T00:00:00Z')
const storage = memoryStorage()
const program = await createAffiliateProgram({ storage, clock, settings: { currency: 'USD', holdPeriodDays: 30 } })
const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
await program.coupons.create({ affiliateId: ann.id, code: 'ANN10' })
for (let index = 0; index < CONVERSIONS; index += 1) {
  await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 19.99, reference: `ch_${index}` })
  if (index === CONVERSIONS / 2) clock.advance({ days: 31 }) // half eligible, half held
}
const { key } = await program.keys.create()
const api = createHandler(program, { rateLimit: false })
const portal = createPortal(program, { sessions: storage })

// Sign in once, as a browser would, and keep the session cookie.
const { url } = await portal.createSignInLink('ann@example.com')
const opened = await portal(new Request(`${ORIGIN}${url}`))
const pre = opened.headers.getSetCookie()[0]!.split(';')[0]!
const csrf = /name="csrf" value="([^"]+)"/.exec(await opened.text())![1]!
const token = new URL(url, ORIGIN).searchParams.get('token')!
const signedIn = await portal(
  new Request(`${ORIGIN}/portal/sign-in`, {
    method: 'POST',
    headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, token }).toString(),
  }),
)
const session = signedIn.headers.getSetCookie().find((line) => line.startsWith('ak_portal='))!.split(';')[0]!

const overview = () => portal(new Request(`${ORIGIN}/portal/`, { headers: { cookie: session } }))
const apiGet = () => api(new Request(`${ORIGIN}/api/v1/affiliates/ann%40example.com`, { headers: { authorization: `Bearer ${key}` } }))
const check = async (name: string, call: () => Promise<Response>) => {
  const response = await call()
  if (response.status !== 200) throw new Error(`${name} answered ${response.status}`)
  await response.text()
}
await check('portal overview', overview)
await check('API GET /affiliates/:email', apiGet)

async function perSecond(call: () => Promise<Response>): Promise<number> {
  let count = 0
  const started = performance.now()
  while (performance.now() - started < DURATION_MS) {
    await (await call()).arrayBuffer()
    count += 1
  }
  return count / ((performance.now() - started) / 1000)
}

const portalRates: number[] = []
const apiRates: number[] = []
for (let round = 0; round < ROUNDS; round += 1) {
  portalRates.push(await perSecond(overview))
  apiRates.push(await perSecond(apiGet))
}
const format = (value: number) => Math.round(value).toLocaleString('en')
const portalRate = median(portalRates)
const apiRate = median(apiRates)
console.log(`portal overview at ${CONVERSIONS.toLocaleString('en')} conversions: ${format(portalRate)} pages/s median of ${ROUNDS} rounds (${portalRates.map(format).join(' / ')})`)
console.log(`  baseline, API GET /affiliates/:email in the same run: ${format(apiRate)}/s; ratio ${(portalRate / apiRate).toFixed(2)} (target >= 0.50)`)
