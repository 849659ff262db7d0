// Better Auth with affiliate-kit (docs/embed.md "Better Auth"): an app whose sign-up page makes
// the visitor a referred user of the affiliate whose link it came through, and whose dashboard page
// shows the signed-in user's referral dashboard (the user enrolled as an affiliate on demand).
// `PORT=8787 node --import tsx examples/better-auth/server.ts`, then open http://127.0.0.1:8787/r/<code>.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { toNodeHandler } from 'better-auth/node'
import { createAffiliateProgram } from 'affiliate-kit'
import { affiliateKit } from 'affiliate-kit/better-auth'
import { memoryStorage } from 'affiliate-kit/memory'
import { createPortal } from 'affiliate-kit/portal'
import { createTrackingHandler } from 'affiliate-kit/tracking'
import { isMain } from '../shared.js'

const page = (res: ServerResponse, title: string, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`)
}

export async function start(port = Number(process.env.PORT ?? 8787)) {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage, settings: { commission: { purchase: { type: 'percentage', rate: 30 } } } })
  const publishableKey = (await program.keys.createPublishable({ name: 'app' })).key
  const tracking = createTrackingHandler(program, { landingUrl: `${origin}/` })
  // The dashboard is served by the portal, framed by this same app.
  const portal = createPortal(program, { sessions: storage, publicUrl: origin, embed: { allowedOrigins: [origin] } })
  const auth = betterAuth({
    baseURL: origin,
    secret: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString('hex'),
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
    plugins: [affiliateKit(program, { embedUrl: portal.embedUrl })],
  })
  const authHandler = toNodeHandler(auth)

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!
    if (path.startsWith('/api/auth/')) return void authHandler(req, res)
    if (path === '/r' || path.startsWith('/r/')) return tracking.node(req, res)
    if (path.startsWith('/portal/')) return portal.node(req, res)
    if (path === '/') {
      return page(res, 'Acme', `<script src="/r/-/affiliate-kit.js" data-key="${publishableKey}" defer></script><h1>Acme</h1><p><a href="/signup">Create your account</a></p>`)
    }
    if (path === '/signup') {
      return page(
        res,
        'Sign up',
        `<h1>Sign up</h1><form id="signup"><label>Name <input name="name" required></label><label>Email <input name="email" type="email" required></label><label>Password <input name="password" type="password" minlength="8" required></label><button type="submit">Sign up</button></form><p id="error" role="alert"></p>
<script>
document.getElementById('signup').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = new FormData(event.target)
  const response = await fetch('/api/auth/sign-up/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(form)) })
  if (response.ok) location.href = '/dashboard'
  else document.getElementById('error').textContent = (await response.json()).message
})
</script>`,
      )
    }
    if (path === '/dashboard') {
      return page(
        res,
        'Refer a friend',
        `<h1>Refer a friend</h1><iframe id="dashboard" title="Referral dashboard" style="width:100%;border:0;height:600px"></iframe>
<script>
window.addEventListener('message', (event) => {
  if (event.origin === location.origin && event.data.type === 'affiliate-kit:resize') document.getElementById('dashboard').style.height = event.data.height + 'px'
})
fetch('/api/auth/affiliate-kit/embed-token', { method: 'POST' }).then((response) => response.json()).then(({ url }) => { document.getElementById('dashboard').src = url })
</script>`,
      )
    }
    res.writeHead(404).end('not found')
  })
  return { url: origin, program, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

if (isMain(import.meta.url)) {
  const { url, program } = await start()
  const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
  console.log(`listening on ${url}\nAnn's referral link: ${url}/r/${ann.referralCode}`)
}
