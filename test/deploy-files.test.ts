// The files that deploy the standalone server and describe the package: compose.yaml (server +
// PostgreSQL) parsed and checked for a working wiring, the Dockerfile's instructions checked
// against package.json, LICENSE and the repository fields. No image is built here: CI may have
// no Docker daemon and no registry for base images.
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = new URL('..', import.meta.url)
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
    const withDefaults = (text: string) => text.replace(/\$\{(\w+):-([^}]*)\}/g, (_match, _name, fallback: string) => fallback)
    const url = new URL(withDefaults(server!.environment.DATABASE_URL!))
    expect(url.protocol).toBe('postgres:')
    expect(url.hostname).toBe('postgres')
    expect(url.port).toBe('5432')
    expect(decodeURIComponent(url.username)).toBe(postgres!.environment.POSTGRES_USER)
    expect(decodeURIComponent(url.password)).toBe(withDefaults(postgres!.environment.POSTGRES_PASSWORD!))
    expect(url.pathname).toBe(`/${postgres!.environment.POSTGRES_DB}`)
    // One variable sets the password in both places.
    expect(server!.environment.DATABASE_URL).toContain(postgres!.environment.POSTGRES_PASSWORD)
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

  it('builds on the Node major of package.json engines and installs the packed package with pg', () => {
    const major = pkg.engines.node.match(/\d+/)![0]
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

  it('keeps the default PGlite data in the volume it declares, writable by its user', () => {
    expect(last('VOLUME')).toBe('/data')
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
