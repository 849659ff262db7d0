// The portal's overview page and the API's GET /affiliates/:email per second for an affiliate with
// 100,000 conversions, each next to the same request for an affiliate with 1,000 in the same run
// (target >= 0.5: a read does not grow with the affiliate's history). All are
// Fetch handlers called in-process on the memory adapter (the built dist/; `npm run build` first);
// rounds alternate among the four and medians are reported. Asserts nothing.
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
const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'BOB' })
await program.coupons.create({ affiliateId: ann.id, code: 'ANN10' })
for (let index = 0; index < CONVERSIONS; index += 1) {
  await program.conversions.create({ type: 'purchase', affiliateId: ann.id, baseValue: 19.99, reference: `ch_${index}` })
  if (index % 100 === 0) await program.conversions.create({ type: 'purchase', affiliateId: bob.id, baseValue: 19.99, reference: `bob_${index}` })
  if (index === CONVERSIONS / 2) clock.advance({ days: 31 }) // half eligible, half held
}
const { key } = await program.keys.create()
const api = createHandler(program, { rateLimit: false })
const portal = createPortal(program, { sessions: storage })

/** Signs in once, as a browser would, and keeps the session cookie. */
async function signIn(email: string): Promise<string> {
  const { url } = await portal.createSignInLink(email)
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
  return signedIn.headers.getSetCookie().find((line) => line.startsWith('ak_portal='))!.split(';')[0]!
}
const session = await signIn('ann@example.com')
const smallSession = await signIn('bob@example.com')

const overview = () => portal(new Request(`${ORIGIN}/portal/`, { headers: { cookie: session } }))
const smallOverview = () => portal(new Request(`${ORIGIN}/portal/`, { headers: { cookie: smallSession } }))
const apiGet = () => api(new Request(`${ORIGIN}/api/v1/affiliates/ann%40example.com`, { headers: { authorization: `Bearer ${key}` } }))
const apiGetSmall = () => api(new Request(`${ORIGIN}/api/v1/affiliates/bob%40example.com`, { headers: { authorization: `Bearer ${key}` } }))
const check = async (name: string, call: () => Promise<Response>) => {
  const response = await call()
  if (response.status !== 200) throw new Error(`${name} answered ${response.status}`)
  await response.text()
}
await check('portal overview', overview)
await check('portal overview, 1,000 conversions', smallOverview)
await check('API GET /affiliates/:email', apiGet)
await check('API GET /affiliates/:email, 1,000 conversions', apiGetSmall)

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
const smallRates: number[] = []
const smallPortalRates: number[] = []
for (let round = 0; round < ROUNDS; round += 1) {
  portalRates.push(await perSecond(overview))
  smallPortalRates.push(await perSecond(smallOverview))
  apiRates.push(await perSecond(apiGet))
  smallRates.push(await perSecond(apiGetSmall))
}
const format = (value: number) => Math.round(value).toLocaleString('en')
const portalRate = median(portalRates)
const apiRate = median(apiRates)
const smallRate = median(smallRates)
const smallPortalRate = median(smallPortalRates)
const sizes = `${CONVERSIONS.toLocaleString('en')} conversions vs at ${(CONVERSIONS / 100).toLocaleString('en')}`
console.log(`portal overview at ${CONVERSIONS.toLocaleString('en')} conversions: ${format(portalRate)} pages/s median of ${ROUNDS} rounds (${portalRates.map(format).join(' / ')})`)
console.log(`  at ${sizes}: ${format(portalRate)} vs ${format(smallPortalRate)} pages/s; ratio ${(portalRate / smallPortalRate).toFixed(2)} (target >= 0.50)`)
console.log(`  beside the API's GET /affiliates/:email in the same run (${format(apiRate)}/s): ratio ${(portalRate / apiRate).toFixed(2)} (a page and its chart vs a JSON record; no target)`)
console.log(`API GET /affiliates/:email at ${sizes}: ${format(apiRate)}/s vs ${format(smallRate)}/s; ratio ${(apiRate / smallRate).toFixed(2)} (target >= 0.50)`)
