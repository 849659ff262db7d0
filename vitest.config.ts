import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Examples import the package by name; tests run them against the sources.
  resolve: {
    alias: [
      { find: /^affiliate-kit\/memory$/, replacement: fileURLToPath(new URL('./src/adapters/memory/index.ts', import.meta.url)) },
      { find: /^affiliate-kit\/http$/, replacement: fileURLToPath(new URL('./src/http/index.ts', import.meta.url)) },
      { find: /^affiliate-kit\/portal$/, replacement: fileURLToPath(new URL('./src/portal/index.ts', import.meta.url)) },
      { find: /^affiliate-kit\/tracking$/, replacement: fileURLToPath(new URL('./src/tracking/index.ts', import.meta.url)) },
      { find: /^affiliate-kit\/better-auth$/, replacement: fileURLToPath(new URL('./src/better-auth/index.ts', import.meta.url)) },
      { find: /^affiliate-kit$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    // AFFILIATE_KIT_TEST_FILES=a,b narrows the run without changing the command: the README test
    // runs the README's literal `npm test` in a clone on a small subset instead of the whole suite.
    include: process.env.AFFILIATE_KIT_TEST_FILES ? process.env.AFFILIATE_KIT_TEST_FILES.split(',') : ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Most files wait on processes, sockets and databases more than they compute: more files at
    // once than cores (each file has its own schema, data directory and ports). Not more than 3 on
    // 2 cores: each file brings its servers, databases and browsers, and the same commit's suite
    // took 959 s with 3 against 1054 s with 4, its files' summed time 2547 s against 3485 s.
    maxWorkers: Number(process.env.AFFILIATE_KIT_TEST_WORKERS ?? 3),
    // Guards against a hang, not a speed target: on a machine where system calls are slow (a
    // sandboxed VM: 4x here), four files at once open fresh PGlite directories in 7 s and more.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
