// The files that deploy the standalone server and describe the package: compose.yaml (server +
// PostgreSQL) parsed and checked for a working wiring, the Dockerfile's instructions checked
// against package.json, the Node versions CI tests (.ci/run) against the image's and engines,
// LICENSE and the repository fields. No image is built here: CI may have no Docker daemon and no
// registry for base images.
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = new URL('../..', import.meta.url)
const read = (file: string) => readFileSync(new URL(file, root), 'utf8')
const pkg = JSON.parse(read('package.json')) as {
  license: string
  version: string
  bin: Record<string, string>
  engines: { node: string }
  repository: { type: string; url: string }
  homepage: string
}

interface ComposeService {
  build?: string
  command?: string[]
  image?: string
  environment: Record<string, string>
  ports?: string[]
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  volumes?: string[]
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> }
  const { server, postgres } = compose.services

  it('runs the server built from this Dockerfile against the PostgreSQL service, once it is healthy', () => {
    expect(server!.build).toBe('.')
    expect(postgres!.image).toMatch(/^postgres:(1[5-9]|[2-9]\d)\b/) // the adapters need PostgreSQL 15 or later
    expect(server!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } })
    expect(postgres!.healthcheck!.test.join(' ')).toContain('pg_isready')
  })

  it("gives the server a DATABASE_URL with the PostgreSQL service's user, password and database", () => {
    const withPassword = (text: string) => text.replace(/\$\{POSTGRES_PASSWORD:\?[^}]*\}/g, 'Secret123')
    const url = new URL(withPassword(server!.environment.DATABASE_URL!))
    expect(url.protocol).toBe('postgres:')
    expect(url.hostname).toBe('postgres')
    expect(url.port).toBe('5432')
    expect(decodeURIComponent(url.username)).toBe(postgres!.environment.POSTGRES_USER)
    expect(decodeURIComponent(url.password)).toBe(withPassword(postgres!.environment.POSTGRES_PASSWORD!))
    expect(url.pathname).toBe(`/${postgres!.environment.POSTGRES_DB}`)
    // One variable sets the password in both places.
    expect(server!.environment.DATABASE_URL).toContain(postgres!.environment.POSTGRES_PASSWORD)
  })

  it('has no default database password: without POSTGRES_PASSWORD compose refuses to start, saying to set it', () => {
    const text = read('compose.yaml')
    const uses = [...text.matchAll(/\$\{POSTGRES_PASSWORD([^}]*)\}/g)].map((match) => match[1])
    expect(uses.length).toBe(2)
    for (const use of uses) expect(use).toMatch(/^:\?\s*set POSTGRES_PASSWORD\b/)
    expect(text).not.toMatch(/\$\{\w+:?-/) // no variable with a default anywhere
    expect(read('.gitignore').split('\n')).toContain('.env')
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['.env', 'config']))
  })

  it('serves with --config from a config volume mounted read-only', () => {
    const at = server!.command!.indexOf('--config')
    expect(server!.command!.slice(0, 1)).toEqual(['serve'])
    const file = server!.command![at + 1]!
    const mount = server!.volumes!.map((volume) => volume.split(':')).find(([, target]) => file.startsWith(`${target}/`))
    expect(mount, `a volume holds ${file}`).toBeDefined()
    expect(mount![2]).toBe('ro')
    expect(existsSync(new URL('affiliate.config.example.json', root))).toBe(true)
    expect(read('compose.yaml')).toContain(`cp affiliate.config.example.json ${mount![0]!.replace(/^\.\//, '')}${file.slice(mount![1]!.length)}`)
  })

  it('listens on all interfaces inside the container, published on the host loopback only, and keeps the data in a volume', () => {
    expect(server!.environment.HOST).toBe('0.0.0.0')
    expect(server!.ports).toEqual([`127.0.0.1:${server!.environment.PORT}:${server!.environment.PORT}`])
    expect(postgres!.ports).toBeUndefined()
    const [volume] = postgres!.volumes![0]!.split(':')
    expect(compose.volumes).toHaveProperty(volume!)
  })
})

describe('Dockerfile', () => {
  const instructions = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.trim().split(/\s+/)
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') }
    })
  const all = (keyword: string) => instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args)
  const runtime = instructions.slice(instructions.map((instruction) => instruction.keyword).lastIndexOf('FROM'))
  const last = (keyword: string) => runtime.filter((instruction) => instruction.keyword === keyword).at(-1)?.args

  it('builds on Node 24 LTS, the Node CI also tests on, and installs the packed package with pg', () => {
    const tested = /npx -y -p node@(\d+) node node_modules\/vitest\/vitest\.mjs run ((?:test\/\S+\.test\.ts ?)+)$/m.exec(read('.ci/run'))
    expect(tested, '.ci/run runs a subset of the tests on another Node').not.toBeNull()
    const [, major, files] = tested!
    expect(Number(major)).toBeGreaterThanOrEqual(24)
    // engines claims the Node the whole suite runs on (20) and later: the image's Node is within it.
    expect(Number(major)).toBeGreaterThanOrEqual(Number(/^>=(\d+)$/.exec(pkg.engines.node)![1]))
    for (const file of files!.trim().split(' ')) expect(existsSync(new URL(file, root)), file).toBe(true)
    for (const from of all('FROM')) expect(from).toMatch(new RegExp(`^node:${major}\\b`))
    expect(all('RUN').join('\n')).toContain('npm pack')
    expect(last('RUN')).toMatch(/npm install .*affiliate-kit\.tgz "pg@/)
  })

  it("runs the package's bin as its entrypoint, serve by default, on PORT and all interfaces", () => {
    expect(JSON.parse(last('ENTRYPOINT')!)).toEqual(['node', `/app/node_modules/affiliate-kit/${pkg.bin['affiliate-kit']!.replace(/^\.\//, '')}`])
    expect(JSON.parse(last('CMD')!)).toEqual(['serve'])
    const env = Object.fromEntries(last('ENV')!.split(' ').map((pair) => pair.split('=')))
    expect(env).toMatchObject({ HOST: '0.0.0.0', PORT: last('EXPOSE') })
  })

  it('checks its health on /healthz with Node itself (the slim image has no curl)', () => {
    const check = last('HEALTHCHECK')!
    const [, exec] = /\bCMD (\[.*\])$/.exec(check)!
    const command = JSON.parse(exec!) as string[]
    expect(command.slice(0, 2)).toEqual(['node', '-e'])
    expect(command[2]).toContain("'/healthz'")
    expect(command[2]).toContain('process.env.PORT || 8787')
    expect(check).toMatch(/--start-period=\d+s/)
  })

  it('keeps the default PGlite data in the volume it declares, writable by its user', () => {
    expect(last('VOLUME')).toBe('/data /config')
    expect(last('WORKDIR')).toBe('/data')
    expect(last('USER')).toBe('node')
    expect(last('RUN')).toContain('chown node:node /data')
    const ignored = read('.dockerignore').split('\n')
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.git', 'dist', 'affiliate-data']))
  })
})

describe('package metadata', () => {
  it('has the MIT LICENSE file package.json names, and repository and homepage fields', () => {
    expect(pkg.license).toBe('MIT')
    expect(existsSync(new URL('LICENSE', root))).toBe(true)
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /)
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/affiliate-kit/affiliate-kit.git' })
    expect(pkg.homepage).toBe('https://github.com/affiliate-kit/affiliate-kit#readme')
  })
})
