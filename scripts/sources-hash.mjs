// A hash of everything a build reads (sources, lock file, build config and scripts): a build
// stamped with it is current while the hash is unchanged, so it can be skipped.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const root = new URL('..', import.meta.url).pathname

export function sourcesHash() {
  const hash = createHash('sha256')
  const add = (path) => hash.update(path).update('\0').update(readFileSync(join(root, path))).update('\0')
  const walk = (dir) => {
    const entries = readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else add(path)
    }
  }
  walk('src')
  walk('scripts')
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsup.config.ts']) add(file)
  return hash.digest('hex')
}

/** Whether the stamp file holds the current hash. */
export function isCurrent(stampFile) {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8') === sourcesHash()
}
