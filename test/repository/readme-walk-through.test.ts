// The README's walk-through, as a newcomer runs it: the config file it names is made from the
// example the package ships, and each curl step, sent to a server started with that file,
// succeeds. The README's configuration example is a valid config whose webhook is a placeholder
// that sends nothing anywhere until it is replaced.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/cli/config.js'
import { serve } from '../../src/cli/serve.js'

const root = new URL('../..', import.meta.url).pathname
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }
const work = mkdtempSync(join(tmpdir(), 'affiliate-kit-walk-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const section = (heading: string) => readme.split(/^#{2,3} /m).find((part) => part.startsWith(`${heading}\n`))!
const firstBlock = (text: string, language: string) => text.match(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``))![1]!
/** The block's commands: continuation lines joined, comments and blank lines left out. */
const commands = (block: string) =>
  block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/^#.*$/, '').trim())
    .filter((line) => line !== '')

describe("the README's walk-through", () => {
  const steps = commands(firstBlock(section('A walk-through with curl'), 'sh'))

  it('makes the --config file it starts with from the example the package ships, a valid config', () => {
    const serveAt = steps.findIndex((line) => line.includes('affiliate-kit serve'))
    const file = /--config (\S+)/.exec(steps[serveAt]!)![1]!
    const copy = steps.slice(0, serveAt).map((line) => /^cp (\S+) (\S+)/.exec(line)).find((match) => match?.[2] === file)
    expect(copy, `a step before serve creates ${file}`).toBeDefined()
    const shipped = copy![1]!.replace(/^node_modules\/affiliate-kit\//, '')
    expect(pkg.files).toContain(shipped)
    expect(() => loadConfig(join(root, shipped))).not.toThrow()
  })

  it('answers every curl step with a 2xx from a server started with the shipped config', async () => {
    const key = `rgk_${'Walk1Through2'.repeat(3)}xyz`
    const server = await serve({ port: 0, host: '127.0.0.1', database: 'memory', config: join(root, 'affiliate.config.example.json'), apiKey: key, logLevel: 'warn', log: () => {} })
    try {
      for (const step of steps.filter((line) => line.startsWith('curl '))) {
        const method = /-X (\w+)/.exec(step)?.[1] ?? 'GET'
        const path = /\$API(\S*)/.exec(step)![1]!
        const body = /-d '([^']*)'/.exec(step)?.[1]
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
        })
        expect(response.status, `${step}: ${await response.text()}`).toBeLessThan(300)
      }
    } finally {
      await server.close()
    }
  })
})

describe("the README's configuration example", () => {
  const example = firstBlock(section('Configuration (`--config affiliate.config.json`)'), 'json')

  it('is a valid config whose webhook posts to a placeholder under the reserved .example top-level domain, which it says to replace', () => {
    const file = join(work, 'example.json')
    writeFileSync(file, example)
    const config = loadConfig(file)
    expect(config.webhooks!.length).toBeGreaterThan(0)
    for (const { url } of config.webhooks!) {
      expect(new URL(url).hostname).toMatch(/\.example$/)
      expect(section('Configuration (`--config affiliate.config.json`)')).toContain(`Replace \`${url}\` with your receiver's URL`)
    }
  })
})
