// Run by providers-braintree-missing.test.ts: affiliate-kit/braintree, the registry and the
// server's provider mount in a process where the braintree package cannot be found. Prints what
// each did as one JSON line.
import { register } from 'node:module'

register('./no-braintree-hooks.mjs', import.meta.url)
const { memoryStorage } = await import('../../../src/adapters/memory/index.js')
const { createAffiliateProgram } = await import('../../../src/index.js')
const { braintreeHandler } = await import('../../../src/providers/braintree/index.js')
const { PROVIDERS } = await import('../../../src/providers/registry.js')
const { providerHandlers } = await import('../../../src/cli/providers-mount.js')

const keys = { merchantId: 'm', publicKey: 'p', privateKey: 'k' }
const program = await createAffiliateProgram({ storage: memoryStorage() })
const errors: string[] = []
const handler = braintreeHandler({ program, ...keys, onError: (error) => errors.push((error as Error).message) })
const answer = await handler(new Request('https://shop.example/hook', { method: 'POST', body: 'bt_signature=p%7Cabc&bt_payload=YWJj' }))
const load = await PROVIDERS.braintree.load().then(() => 'loaded', (error: Error) => error.message)
const mount = await providerHandlers(program, { braintree: keys }).then(() => 'mounted', (error: Error) => `${error.name}: ${error.message}`)
console.log(JSON.stringify({ status: answer.status, errors, load, mount }))
