import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    storage: 'src/storage.ts',
    'adapters/memory': 'src/adapters/memory/index.ts',
    'http/index': 'src/http/index.ts',
    webhooks: 'src/webhooks/index.ts',
    'adapters/pglite': 'src/adapters/pglite/index.ts',
    'adapters/postgres': 'src/adapters/postgres/index.ts',
    'client/index': 'src/client/index.ts',
    'portal/index': 'src/portal/index.ts',
    'admin/index': 'src/admin/index.ts',
    'providers/stripe': 'src/providers/stripe/index.ts',
    'providers/paddle': 'src/providers/paddle/index.ts',
    'providers/lemon-squeezy': 'src/providers/lemon-squeezy/index.ts',
    'cli/main': 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
})
