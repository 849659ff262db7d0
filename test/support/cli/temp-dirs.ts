// Fresh temporary directories for one test file, removed after its last test.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/** Returns a maker of fresh directories named prefix-XXXXXX; all are removed after the file's tests. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
    dirs.push(dir)
    return dir
  }
}
