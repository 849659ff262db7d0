import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

// The files that take a minute or more on CI, longest first: started before the others, so that
// none of them is still running alone at the end while the other workers idle. (A fresh clone has
// no timings cache; vitest would start them in name order.)
const LONG_FILES = ['pack', 'mixed-load', 'readme-commands', 'cli-import-postgres', 'cli', 'sql-adapter', 'cli-portal-link', 'providers-race-postgres', 'postgres-pgbouncer', 'email-crash', 'http-fuzz', 'sql-log']

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) => {
      const index = LONG_FILES.indexOf(basename(file.moduleId, '.test.ts'))
      return index === -1 ? LONG_FILES.length : index
    }
    return sorted.map((file, order) => ({ file, order })).sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order).map(({ file }) => file)
  }
}

export default defineConfig({
  // Examples import the package by name; tests run them against the sources.
  resolve: {
    alias: [
      { find: /^affiliate-kit\/memory$/, replacement: fileURLToPath(new URL('./src/adapters/memory/index.ts', import.meta.url)) },
      { find: /^affiliate-kit\/http$/, replacement: fileURLToPath(new URL('./src/http/index.ts', import.meta.url)) },
      { find: /^affiliate-kit$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    // AFFILIATE_KIT_TEST_FILES=a,b narrows the run without changing the command: the README test
    // runs the README's literal `npm test` in a clone on a small subset instead of the whole suite.
    include: process.env.AFFILIATE_KIT_TEST_FILES ? process.env.AFFILIATE_KIT_TEST_FILES.split(',') : ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: LongFilesFirst },
    // Most files wait on processes, sockets and databases more than they compute: more files at
    // once than cores (each file has its own schema, data directory and ports).
    maxWorkers: Number(process.env.AFFILIATE_KIT_TEST_WORKERS ?? 4),
    // Guards against a hang, not a speed target: on a machine where system calls are slow (a
    // sandboxed VM: 4x here), four files at once open fresh PGlite directories in 7 s and more.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
