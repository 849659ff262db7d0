import { defineConfig } from 'tsup'
import { PROVIDER_NAMES } from './src/core/model/types.js'

/** One entry per payment provider of the registry (affiliate-kit/<name>). */
const providers = Object.fromEntries(PROVIDER_NAMES.map((name) => [`providers/${name}`, `src/providers/${name}/index.ts`]))

export default defineConfig([{
  entry: {
    index: 'src/index.ts',
    storage: 'src/storage.ts',
    'adapters/memory': 'src/adapters/memory/index.ts',
    'http/index': 'src/http/index.ts',
    webhooks: 'src/webhooks/index.ts',
    email: 'src/email/index.ts',
    'adapters/pglite': 'src/adapters/pglite/index.ts',
    'adapters/postgres': 'src/adapters/postgres/index.ts',
    'client/index': 'src/client/index.ts',
    'mcp/index': 'src/mcp/index.ts',
    'portal/index': 'src/portal/index.ts',
    'admin/index': 'src/admin/index.ts',
    ...providers,
    'cli/main': 'src/cli/main.ts',
    'tracking/index': 'src/tracking/index.ts',
    'importers/index': 'src/importers/index.ts',
    'payouts/index': 'src/payouts/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  // import.meta.url in the CommonJS build (affiliate-kit/mcp finds the docs/ it ships with it).
  shims: true,
},
// The browser snippet: minified ESM for bundlers, checked against its 2 KB budget (scripts/snippet-size.mjs),
// and CommonJS for a require() (a CommonJS test runner's, say).
{
  entry: { 'browser/index': 'src/browser/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  minify: true,
  platform: 'browser',
  target: 'es2020',
  sourcemap: true,
},
// The Better Auth plugin, on its own: type-checking it loads better-auth's types, which would not
// fit in the main build's declaration worker beside everything else.
{
  entry: { 'better-auth/index': 'src/better-auth/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'node20',
},
// The embedded dashboard for browsers: the web component (affiliate-kit/embed) and its React
// wrapper (affiliate-kit/react, React left to the app as a peer dependency).
{
  entry: { 'embed/index': 'src/embed/index.ts', 'react/index': 'src/react/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  external: ['react'],
}])
