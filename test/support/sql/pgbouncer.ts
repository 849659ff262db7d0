// A PgBouncer of the test's own in transaction mode, in front of DATABASE_URL's server (its
// database, and any other by name): its ini and auth file in a temp dir, on a free port, stopped
// and removed afterwards.
// A missing pgbouncer fails the test (CI installs Debian's package, see .ci/run), never skips it.
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { DATABASE_URL, type PostgresRoute } from './pg-schema.js'

export interface PgBouncer {
  /** DATABASE_URL with PgBouncer's host and port. */
  url: string
  stop(): Promise<void>
}

/** $PGBOUNCER, else pgbouncer on PATH or in /usr/sbin (Debian's package); throws what to install. */
export function pgbouncerBinary(): string {
  const candidates = [process.env.PGBOUNCER, ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'pgbouncer')), '/usr/sbin/pgbouncer']
  for (const candidate of candidates) {
    if (!candidate) continue
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  throw new Error('pgbouncer is not installed: these tests run the PostgreSQL storage through it. Install it (Debian: apt-get install pgbouncer; CI does in .ci/run) or set PGBOUNCER to its path')
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Starts PgBouncer (pool_mode = transaction, auth_type = trust) in front of DATABASE_URL, with
 * `poolSize` server connections per database (default_pool_size).
 */
export async function startPgBouncer({ poolSize = 20 }: { poolSize?: number } = {}): Promise<PgBouncer> {
  const binary = pgbouncerBinary()
  const target = new URL(DATABASE_URL!)
  const database = decodeURIComponent(target.pathname.slice(1))
  const user = decodeURIComponent(target.username) || 'postgres'
  const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-pgbouncer-'))
  const password = target.password ? ` password=${decodeURIComponent(target.password)}` : ''
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`)
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort()
    const url = new URL(DATABASE_URL!)
    url.hostname = '127.0.0.1'
    url.port = String(port)
    url.password = ''
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${user}${password}`,
        // Any other database of that server by its own name (the CLI tests make one per test).
        `* = host=${target.hostname} port=${target.port || 5432} user=${user}${password}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        `default_pool_size = ${poolSize}`,
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
    )
    // PgBouncer refuses to run as root: as root it drops to nobody, once it has read these files.
    const args = [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')]
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const started = await upOrExited(child)
    if (started === true) {
      // A test process that ends without stop() (a crash, a timeout) leaves no PgBouncer behind.
      const orphaned = () => child.kill('SIGTERM')
      process.once('exit', orphaned)
      return {
        url: url.toString(),
        async stop() {
          process.off('exit', orphaned)
          const exited = new Promise((resolve) => child.once('exit', resolve))
          child.kill('SIGTERM')
          await exited
          rmSync(dir, { recursive: true, force: true })
        },
      }
    }
    // Another process took the free port between our look and PgBouncer's bind: try another.
    if (attempt >= 3 || !/Address already in use/.test(started)) {
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`pgbouncer did not start: ${started}`)
    }
  }
}

/** true once PgBouncer says it is up; its output when it exits first. */
function upOrExited(child: ChildProcess): Promise<true | string> {
  let output = ''
  return new Promise((resolve) => {
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000)
      if (/process up/.test(output)) resolve(true)
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.once('error', (error) => resolve(error.message))
    child.once('exit', (code) => resolve(`exited with ${code}: ${output}`))
  })
}

/**
 * The route through a PgBouncer started before the tests of the file (or describe) calling this,
 * and stopped after them; nothing is started without DATABASE_URL (the suites then skip, as the
 * direct ones do).
 */
export function pgBouncerRoute(options: { poolSize?: number } = {}): PostgresRoute {
  let bouncer: PgBouncer | undefined
  if (DATABASE_URL) {
    beforeAll(async () => {
      bouncer = await startPgBouncer(options)
    })
    afterAll(async () => {
      await bouncer?.stop()
    })
  }
  return {
    title: ' through PgBouncer (transaction mode)',
    url: () => {
      if (!bouncer) throw new Error('PgBouncer has not started (see the error of beforeAll)')
      return bouncer.url
    },
    options: { pooler: 'transaction' },
  }
}
