import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Examples import the package by name; tests run them against the sources.
  resolve: {
    alias: [
      { find: /^affiliate-kit\/memory$/, replacement: fileURLToPath(new URL('./src/adapters/memory.ts', import.meta.url)) },
      { find: /^affiliate-kit\/http$/, replacement: fileURLToPath(new URL('./src/http/index.ts', import.meta.url)) },
      { find: /^affiliate-kit$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
