// Next.js (App Router) route handler: app/api/v1/[...path]/route.ts serves the whole API.
// The handler is created once per server process; use a SQL adapter in production, since the
// in-memory one forgets everything on restart and is not shared between serverless instances.
import { createAffiliateProgram } from 'affiliate-kit'
import { createHandler } from 'affiliate-kit/http'
import { memoryStorage } from 'affiliate-kit/memory'

const handler = createAffiliateProgram({ storage: memoryStorage() }).then(async (program) => {
  if (process.env.AFFILIATE_KIT_API_KEY) await program.keys.ensure(process.env.AFFILIATE_KIT_API_KEY)
  return createHandler(program)
})

async function serve(request: Request): Promise<Response> {
  return (await handler)(request)
}

export { serve as GET, serve as POST, serve as PUT, serve as DELETE }
