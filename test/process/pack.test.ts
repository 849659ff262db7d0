// The way a newcomer meets the package: `npm pack`, install the tarball into an empty folder,
// `npx affiliate-kit serve --database memory`, then the README's curl walk-through over HTTP,
// including the signed webhook arriving at a local receiver; without pg, PostgreSQL asks for it,
// without the MCP SDK, the MCP server asks for that, and without braintree, affiliate-kit/braintree does.
// Its type declarations pass a consumer's strict build and are-the-types-wrong.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, run, type Running } from '../support/cli/process.js'
import { documentedSamples } from '../support/webhooks/catalogue.js'

const root = new URL('../..', import.meta.url).pathname
const work = mkdtempSync(join(tmpdir(), 'affiliate-kit-pack-'))
const received: Array<{ headers: IncomingMessage['headers']; body: string }> = []
const receiver = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk: Buffer) => (body += chunk.toString()))
  request.on('end', () => {
    received.push({ headers: request.headers, body })
    response.end('ok')
  })
})
let server: Running
let tarballPath = ''

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, stdio: 'pipe', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } })
  // CI builds dist/ just before the tests: pack that build when it is of the current sources,
  // instead of building it again through prepack (a minute and more).
  const built = await import('../../scripts/sources-hash.mjs').then(({ isCurrent }) => isCurrent(join(root, 'dist/.full-build')))
  npm(['pack', '--pack-destination', work, ...(built ? ['--ignore-scripts'] : [])], root)
  const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'))!
  tarballPath = join(work, tarball)
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'newcomer', private: true, type: 'module' }))
  npm(['install', join(work, tarball)], work)
}, 900_000)

afterAll(async () => {
  await server?.stop()
  receiver.close()
  rmSync(work, { recursive: true, force: true })
})

describe('npm pack, install, npx affiliate-kit serve', () => {
  it('ships the payment provider entry points (ESM and CommonJS)', async () => {
    const installed = join(work, 'node_modules/affiliate-kit/dist/providers')
    const stripe = (await import(pathToFileURL(join(installed, 'stripe.js')).href)) as typeof import('../../src/providers/stripe/index.js')
    const paddle = (await import(pathToFileURL(join(installed, 'paddle.js')).href)) as typeof import('../../src/providers/paddle/index.js')
    const lemon = (await import(pathToFileURL(join(installed, 'lemon-squeezy.js')).href)) as typeof import('../../src/providers/lemon-squeezy/index.js')
    const polar = (await import(pathToFileURL(join(installed, 'polar.js')).href)) as typeof import('../../src/providers/polar/index.js')
    const braintree = (await import(pathToFileURL(join(installed, 'braintree.js')).href)) as typeof import('../../src/providers/braintree/index.js')
    const chargebee = (await import(pathToFileURL(join(installed, 'chargebee.js')).href)) as typeof import('../../src/providers/chargebee/index.js')
    const recurly = (await import(pathToFileURL(join(installed, 'recurly.js')).href)) as typeof import('../../src/providers/recurly/index.js')
    expect([stripe.stripeHandler, paddle.paddleHandler, lemon.lemonSqueezyHandler, polar.polarHandler, braintree.braintreeHandler, chargebee.chargebeeHandler, recurly.recurlyHandler].map((handler) => typeof handler)).toEqual(Array(7).fill('function'))
    const required = execFileSync(process.execPath, ['-e', "console.log(['stripe', 'lemon-squeezy', 'polar', 'braintree', 'chargebee', 'recurly'].map((name) => typeof Object.values(require('affiliate-kit/' + name)).find((member) => typeof member === 'function' && member.name.endsWith('Handler'))).join(' '))"], { cwd: work })
    expect(required.toString().trim()).toBe('function function function function function function')
  })

  it('ships affiliate-kit/storage for adapter authors: a UniqueViolation thrown by a custom adapter is a 409 conflict to the app (ESM and CommonJS)', () => {
    // An adapter of the author's own (here: memory storage wrapped) reports a taken project name.
    const script = (load: (name: string) => string) => `
      ${load('affiliate-kit')}
      ${load('affiliate-kit/memory')}
      ${load('affiliate-kit/storage')}
      const base = memoryStorage()
      const insert = (project) => (project.name === 'taken' ? Promise.reject(new UniqueViolation('project_name')) : base.projects.insert(project))
      const storage = { ...base, projects: { ...base.projects, insert } }
      createAffiliateProgram({ storage })
        .then((program) => program.projects.create({ name: 'taken' }))
        .then(() => console.log('created'), (error) => console.log(JSON.stringify({ code: error.code, field: error.field })))
        .then(() => process.exit(0))`
    const names: Record<string, string> = { 'affiliate-kit': 'createAffiliateProgram', 'affiliate-kit/memory': 'memoryStorage', 'affiliate-kit/storage': 'UniqueViolation' }
    writeFileSync(join(work, 'adapter.mjs'), script((name) => `import { ${names[name]} } from '${name}'`))
    writeFileSync(join(work, 'adapter.cjs'), script((name) => `const { ${names[name]} } = require('${name}')`))
    for (const file of ['adapter.mjs', 'adapter.cjs']) {
      const output = execFileSync(process.execPath, [file], { cwd: work }).toString().trim()
      expect(JSON.parse(output)).toEqual({ code: 'conflict', field: 'name' })
    }
  })

  it('its type declarations pass a strict build (skipLibCheck false) of a project importing every entry point of exports, as ESM and as CommonJS, under moduleResolution nodenext and bundler, and the samples of docs/webhooks.md have the types of their events', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    const entryPoints = Object.keys(manifest.exports)
      .filter((path) => !path.endsWith('.json'))
      .map((path) => (path === '.' ? 'affiliate-kit' : `affiliate-kit/${path.slice(2)}`))
    expect(entryPoints.length).toBeGreaterThan(15)
    const consumer = join(work, 'strict-types')
    mkdirSync(consumer, { recursive: true })
    const imports = entryPoints.map((name, index) => `import * as entry${index} from '${name}'`).join('\n')
    const source = `${imports}\nexport const entryPoints = [${entryPoints.map((_, index) => `entry${index}`).join(', ')}]\n`
    // index.ts is ESM (the package is "type": "module"); index.cts is CommonJS: its imports are require()s.
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'strict-consumer', private: true, type: 'module' }))
    writeFileSync(join(consumer, 'index.ts'), source)
    writeFileSync(join(consumer, 'index.cts'), source)
    // Every sample of docs/webhooks.md is its event's published type; a payout amount as a number is not.
    const samples = [...documentedSamples()]
    const payout = samples.find(([type]) => type === 'payout.created')![1]
    writeFileSync(
      join(consumer, 'webhook-samples.ts'),
      [
        "import type { WebhookEvent, WebhookEventOf } from 'affiliate-kit/webhooks'",
        `export const samples: WebhookEvent[] = [\n${samples.map(([type, json]) => `  ${json} satisfies WebhookEventOf<'${type}'>`).join(',\n')},\n]`,
        '// @ts-expect-error a payout amount is decimal text',
        `export const wrong = ${payout.replace(/"amount":"([\d.]+)"/, '"amount":$1')} satisfies WebhookEventOf<'payout.created'>`,
      ].join('\n'),
    )
    // @types/node only (the package's declarations use node:http), from this checkout: nothing else of it is visible.
    // affiliate-kit/react's declarations import React's, which an app using it has (React is its peer
    // dependency): this checkout's @types/react stands for the app's.
    const react = { paths: { react: [join(root, 'node_modules/@types/react/index.d.ts')] } }
    const base = { strict: true, skipLibCheck: false, noEmit: true, target: 'es2022', types: ['node'], typeRoots: [join(root, 'node_modules/@types')], ...react }
    const modes = { nodenext: { module: 'nodenext', moduleResolution: 'nodenext' }, bundler: { module: 'preserve', moduleResolution: 'bundler' } }
    for (const [mode, options] of Object.entries(modes)) {
      writeFileSync(join(consumer, `tsconfig.${mode}.json`), JSON.stringify({ compilerOptions: { ...base, ...options }, files: ['index.ts', 'index.cts', 'webhook-samples.ts'] }))
    }
    // Both projects in one `tsc -b`: it parses each declaration file once for both (the bundle's
    // .d.ts is 1.8 MB), where a `tsc -p` per project parsed everything twice. Each project is
    // still its own program, checked in full; --verbose names the project the lines after it are of.
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', ...Object.keys(modes).map((mode) => `tsconfig.${mode}.json`), '--verbose', '--listFiles'], { cwd: consumer, encoding: 'utf8' })
    const lines = new Map<string, string[]>()
    let project = ''
    for (const line of tsc.stdout.split('\n')) {
      project = /Building project '.*tsconfig\.(\w+)\.json'/.exec(line)?.[1] ?? project
      lines.set(project, [...(lines.get(project) ?? []), line])
    }
    expect([...lines.keys()].filter(Boolean)).toEqual(Object.keys(modes))
    for (const mode of Object.keys(modes)) {
      const errors = lines.get(mode)!.filter((line) => /error TS\d+/.test(line))
      expect({ mode, errors }).toEqual({ mode, errors: [] })
      // Both conditions were checked: the .d.ts of import and the .d.cts of require.
      const checked = lines.get(mode)!.filter((line) => line.includes('/node_modules/affiliate-kit/dist/'))
      expect(checked.some((file) => file.endsWith('/dist/index.d.ts')) && checked.some((file) => file.endsWith('/dist/index.d.cts'))).toBe(true)
    }
    expect((lines.get('') ?? []).filter((line) => /error TS\d+/.test(line))).toEqual([])
    expect(tsc.status).toBe(0)
  }, 600_000)

  it('are-the-types-wrong finds no problem in the packed tarball (node10, node16 from CommonJS and ESM, bundler)', () => {
    const attw = spawnSync(process.execPath, [join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarballPath, '--format', 'ascii', '--no-color'], { cwd: work, encoding: 'utf8' })
    expect(attw.stdout + attw.stderr).toContain('No problems found')
    expect(attw.status).toBe(0)
  }, 120_000)

  it("ships affiliate.config.example.json where the README's walk-through copies it from, and affiliate.config.full.json beside it", () => {
    for (const file of ['affiliate.config.example.json', 'affiliate.config.full.json']) {
      const shipped = readFileSync(join(work, 'node_modules/affiliate-kit', file), 'utf8')
      expect(shipped).toBe(readFileSync(join(root, file), 'utf8'))
    }
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('cp node_modules/affiliate-kit/affiliate.config.example.json affiliate.config.json')
  })

  it('serves the README walk-through and delivers a signed webhook', async () => {
    const { port } = receiver.address() as AddressInfo
    writeFileSync(
      join(work, 'affiliate.config.json'),
      JSON.stringify({
        currency: 'USD',
        holdPeriodDays: 30,
        commission: { purchase: { type: 'percentage', rate: 30 } },
        allowPrivateNetworks: true,
        webhooks: [{ url: `http://127.0.0.1:${port}/hook`, events: ['referral_converted', 'payout.created'], secret: 'whsec_test' }],
      }),
    )
    server = run(['affiliate-kit', 'serve', '--database', 'memory', '--port', '0', '--config', 'affiliate.config.json'], {
      cwd: work,
      command: ['npx', '--no-install'],
      group: true,
    })
    const [, base] = await server.waitFor(/listening on (http:\/\/\S+)/)
    const [, key] = await server.waitFor(/shown once, keep it\): (rgk_\w+)/)

    const affiliate = await api(base!, key!, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ANN' })
    expect(affiliate).toMatchObject({ status: 201, body: { success: true, data: { user_email: 'ann@example.com', referral_code: 'ANN' } } })
    const conversion = await api(base!, key!, 'POST', '/conversions', {
      type: 'purchase',
      referral_code: 'ANN',
      email: 'bob@example.com',
      base_value: 49,
      reference: 'ch_1',
    })
    expect(conversion).toMatchObject({ status: 201, body: { data: { value: 14.7, status: 'pending' }, attribution: { matched_by: 'referral_code' } } })
    const stats = await api(base!, key!, 'GET', '/affiliates/ann%40example.com')
    expect(stats.body).toMatchObject({ data: { total_earnings: '14.70', held_earnings: '14.70', eligible_earnings: '0.00', signups: 1, purchases: 1 } })
    const payout = await api(base!, key!, 'POST', '/payouts', { affiliate_email: 'ann@example.com', amount: 14.7, method: 'paypal' })
    expect(payout).toMatchObject({ status: 201, body: { data: { amount: '14.70', status: 'Paid', unpaid_earnings_after: 0 } } })

    const deadline = Date.now() + 15_000
    while (received.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    const events = received.map((delivery) => delivery.headers['x-service-event']).sort()
    expect(events).toEqual(['payout.created', 'referral_converted'])
    const { verifySignature } = (await import(pathToFileURL(join(work, 'node_modules/affiliate-kit/dist/webhooks.js')).href)) as typeof import('../../src/webhooks/index.js')
    for (const delivery of received) {
      expect(delivery.headers['user-agent']).toBe('Service-Webhooks/1.0')
      expect(verifySignature('whsec_test', delivery.body, String(delivery.headers['x-service-signature']))).toBe(true)
      expect(verifySignature('wrong', delivery.body, String(delivery.headers['x-service-signature']))).toBe(false)
    }
    // Ctrl-C: SIGINT reaches npx and the server in its process group; the server drains and exits.
    await server.stop()
    expect(server.output()).toContain('shutting down: draining requests and webhook deliveries')
    const closed = Date.now() + 10_000
    let refused = false
    while (!refused && Date.now() < closed) {
      refused = await fetch(`${base}/affiliates`).then(
        () => false,
        () => true,
      )
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(refused).toBe(true)
  }, 120_000)

  it('npx affiliate-kit --version prints the installed version', async () => {
    const version = run(['affiliate-kit', '--version'], { cwd: work, command: ['npx', '--no-install'] })
    expect(await version.exited).toBe(0)
    expect(version.output().trim().split('\n').at(-1)).toBe((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version)
  }, 60_000)

  it('affiliate-kit/postgres loads without pg (import and require), and a storage from a connection string says "npm i pg" on first use', () => {
    const script = (load: (name: string) => string) => `
      ${load('affiliate-kit')}
      ${load('affiliate-kit/postgres')}
      createAffiliateProgram({ storage: postgresStorage({ connectionString: 'postgres://shop@127.0.0.1:1/shop' }) })
        .then(() => console.log('opened'), (error) => console.log(error.message))
        .then(() => process.exit(0))`
    const names: Record<string, string> = { 'affiliate-kit': 'createAffiliateProgram', 'affiliate-kit/postgres': 'postgresStorage' }
    writeFileSync(join(work, 'without-pg.mjs'), script((name) => `import { ${names[name]} } from '${name}'`))
    writeFileSync(join(work, 'without-pg.cjs'), script((name) => `const { ${names[name]} } = require('${name}')`))
    for (const file of ['without-pg.mjs', 'without-pg.cjs']) {
      const output = execFileSync(process.execPath, [file], { cwd: work }).toString().trim()
      expect(output).toBe('affiliate-kit/postgres needs the pg package beside affiliate-kit: run "npm i pg"')
    }
  })

  it('affiliate-kit/mcp loads without the MCP SDK (import and require), and createMcpServer and `affiliate-kit mcp` say "npm i @modelcontextprotocol/sdk" in one line', async () => {
    const script = (load: (name: string) => string) => `
      ${load('affiliate-kit')}
      ${load('affiliate-kit/memory')}
      ${load('affiliate-kit/mcp')}
      createAffiliateProgram({ storage: memoryStorage() })
        .then(async (program) => createMcpServer(program, { apiKey: (await program.keys.create()).key }))
        .then(() => console.log('created'), (error) => console.log(error.name + ': ' + error.message))
        .then(() => process.exit(0))`
    const names: Record<string, string> = { 'affiliate-kit': 'createAffiliateProgram', 'affiliate-kit/memory': 'memoryStorage', 'affiliate-kit/mcp': 'createMcpServer' }
    writeFileSync(join(work, 'without-sdk.mjs'), script((name) => `import { ${names[name]} } from '${name}'`))
    writeFileSync(join(work, 'without-sdk.cjs'), script((name) => `const { ${names[name]} } = require('${name}')`))
    for (const file of ['without-sdk.mjs', 'without-sdk.cjs']) {
      const output = execFileSync(process.execPath, [file], { cwd: work }).toString().trim()
      expect(output).toBe('McpSetupError: affiliate-kit/mcp needs the MCP SDK beside affiliate-kit: run "npm i @modelcontextprotocol/sdk"')
    }
    const missing = run(['affiliate-kit', 'mcp', '--database', 'memory'], { cwd: work, command: ['npx', '--no-install'], env: { AFFILIATE_KIT_API_KEY: 'rgk_AnyKeyWillDoHere00000000' } })
    expect(await missing.exited).toBe(1)
    const lines = missing.output().trim().split('\n').filter((line) => !line.startsWith('npm warn'))
    expect(lines).toEqual(['affiliate-kit: affiliate-kit/mcp needs the MCP SDK beside affiliate-kit: run "npm i @modelcontextprotocol/sdk"'])
  }, 60_000)

  it('affiliate-kit/braintree loads without braintree (import and require); a notification reports "npm i braintree", and serve stops with it in one line', async () => {
    const MISSING = 'affiliate-kit/braintree needs the braintree package beside affiliate-kit: run "npm i braintree"'
    const script = (load: (name: string) => string) => `
      ${load('affiliate-kit')}
      ${load('affiliate-kit/memory')}
      ${load('affiliate-kit/braintree')}
      createAffiliateProgram({ storage: memoryStorage() })
        .then((program) => braintreeHandler({ program, merchantId: 'm', publicKey: 'p', privateKey: 'k', onError: (error) => console.log(error.message) })(new Request('http://shop.example/', { method: 'POST', body: 'bt_signature=p%7Cabc&bt_payload=YWJj' })))
        .then((answer) => console.log(answer.status))
        .then(() => process.exit(0))`
    const names: Record<string, string> = { 'affiliate-kit': 'createAffiliateProgram', 'affiliate-kit/memory': 'memoryStorage', 'affiliate-kit/braintree': 'braintreeHandler' }
    writeFileSync(join(work, 'without-braintree.mjs'), script((name) => `import { ${names[name]} } from '${name}'`))
    writeFileSync(join(work, 'without-braintree.cjs'), script((name) => `const { ${names[name]} } = require('${name}')`))
    for (const file of ['without-braintree.mjs', 'without-braintree.cjs']) {
      expect(execFileSync(process.execPath, [file], { cwd: work }).toString().trim().split('\n')).toEqual([MISSING, '500'])
    }
    const config = join(work, 'braintree.config.json')
    writeFileSync(config, JSON.stringify({ providers: { braintree: { merchantId: 'm', publicKey: 'p', privateKey: 'k' } } }))
    const missing = run(['affiliate-kit', 'serve', '--port', '0', '--database', 'memory', '--config', config], { cwd: work, command: ['npx', '--no-install'] })
    expect(await missing.exited).toBe(1)
    expect(missing.output().trim().split('\n').filter((line) => !line.startsWith('npm warn')).at(-1)).toBe(`affiliate-kit: ${MISSING}`)
  }, 60_000)

  it('--database postgres:// without pg installed says "npm i pg" in one line, also from DATABASE_URL', async () => {
    for (const [args, env] of [
      [['--database', 'postgres://shop:S3cret@127.0.0.1:5432/shop'], {}],
      [[], { DATABASE_URL: 'postgres://shop:S3cret@127.0.0.1:5432/shop' }],
    ] as const) {
      const missing = run(['affiliate-kit', 'serve', '--port', '0', ...args], { cwd: work, command: ['npx', '--no-install'], env })
      expect(await missing.exited).toBe(1)
      const lines = missing.output().trim().split('\n').filter((line) => !line.startsWith('npm warn')) // npx's own notes about this machine's npm config
      expect(lines).toEqual(['affiliate-kit: PostgreSQL needs the pg package beside affiliate-kit: run "npm i pg"'])
    }
  }, 60_000)
})
