// One registry per list: the payment providers' names live in the core (PROVIDER_NAMES), their
// handlers in src/providers/registry.ts, and every other list (schemas, OpenAPI, the server's
// config and routes, the CLI's usage, the build entries, the package's exports) derives from
// them. A new provider is its folder, its name, its registry line and its package export.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { providerName } from '../../src/core/model/schemas.js'
import { PROVIDER_NAMES } from '../../src/core/model/types.js'
import { providerConfigKey, PROVIDERS } from '../../src/providers/registry.js'

const ROOT = resolve(__dirname, '../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

describe('the provider registry', () => {
  it('registers a handler for every name of the core, and each has its folder', async () => {
    expect(Object.keys(PROVIDERS).sort()).toEqual([...PROVIDER_NAMES].sort())
    for (const name of PROVIDER_NAMES) {
      expect(existsSync(join(ROOT, 'src/providers', name, 'index.ts'))).toBe(true)
      expect(typeof (await PROVIDERS[name].load())).toBe('function')
    }
  })

  it('is what the package exports: affiliate-kit/<name> for every provider', () => {
    const exports = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports
    for (const name of PROVIDER_NAMES) {
      expect(exports[`./${name}`]).toEqual({
        import: { types: `./dist/providers/${name}.d.ts`, default: `./dist/providers/${name}.js` },
        require: { types: `./dist/providers/${name}.d.cts`, default: `./dist/providers/${name}.cjs` },
      })
    }
  })

  it('is the picklist of the core and names each config key', () => {
    for (const name of PROVIDER_NAMES) expect(v.is(providerName, name)).toBe(true)
    expect(v.is(providerName, 'chargify')).toBe(false)
    expect(PROVIDER_NAMES.map(providerConfigKey)).toEqual(['stripe', 'paddle', 'lemonSqueezy', 'polar', 'braintree', 'chargebee', 'recurly'])
  })

  it('is the only list: no other file of src/ names the providers together', () => {
    // Two names quoted side by side are a list; a provider's own folder names only itself.
    const quoted = PROVIDER_NAMES.map((name) => `'${name}'`)
    const lists = sourceFiles(join(ROOT, 'src')).filter((file) => {
      const text = readFileSync(file, 'utf8')
      return quoted.filter((name) => text.includes(name)).length >= 2
    })
    const named = lists.map((file) => file.slice(ROOT.length + 1))
    expect(named).toContain('src/core/model/types.ts')
    expect(named.filter((file) => file !== 'src/core/model/types.ts' && file !== 'src/providers/registry.ts')).toEqual([])
  })

  it('leaves storage to the program: no provider module reaches the storage port or keeps module state', () => {
    const reaching = sourceFiles(join(ROOT, 'src/providers')).filter((file) => {
      const text = readFileSync(file, 'utf8')
      return /core\/ports\/storage\.js|DomainStore|StorageTx|\.transaction\(|providerEvents\.(insert|record|update|claim|saveLink)|new WeakMap|^let /m.test(text)
    })
    expect(reaching.map((file) => file.slice(ROOT.length + 1))).toEqual([])
  })
})
