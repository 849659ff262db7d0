// affiliate-kit/payouts is a package entry point (docs/payouts.md): the exports map and the build
// entries name it, and it exports what the docs import from it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as payouts from '../../src/payouts/index.js'

const ROOT = join(import.meta.dirname, '../..')

describe('affiliate-kit/payouts', () => {
  it('is in the exports map (ESM and CommonJS) and among the build entries', () => {
    const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    expect(exports['./payouts']).toEqual({
      import: { types: './dist/payouts/index.d.ts', default: './dist/payouts/index.js' },
      require: { types: './dist/payouts/index.d.cts', default: './dist/payouts/index.cjs' },
    })
    expect(readFileSync(join(ROOT, 'tsup.config.ts'), 'utf8')).toContain("'payouts/index': 'src/payouts/index.ts'")
  })

  it('exports what docs/payouts.md imports from it', () => {
    const docs = readFileSync(join(ROOT, 'docs/payouts.md'), 'utf8')
    const imported = [...docs.matchAll(/import \{ ([^}]+) \} from 'affiliate-kit\/payouts'/g)].flatMap((match) => match[1]!.split(',').map((name) => name.trim()))
    expect(imported.length).toBeGreaterThanOrEqual(4)
    for (const name of imported) expect(typeof (payouts as Record<string, unknown>)[name], name).toBe('function')
  })
})
