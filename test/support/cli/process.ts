// Runs the affiliate-kit command as a child process and reads what it prints.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'

// Built once per run from the sources by test/support/global-setup.ts (one build shared by every process test).
export const MAIN = fileURLToPath(new URL('../../../.test-build/cli/main.js', import.meta.url))

export interface Running {
  child: ChildProcess
  output: () => string
  /** Resolves with the first match of pattern in stdout+stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>
  exited: Promise<number | null>
}

/** Children still running when a test file ends (a failed test never stopped them) are killed. */
const started = new Set<{ child: ChildProcess; group: boolean }>()
afterAll(() => {
  for (const { child, group } of started) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    if (group) process.kill(-child.pid!, 'SIGKILL')
    else child.kill('SIGKILL')
  }
})

/** Starts `command args` (default: the CLI built from the sources). */
export function run(
  args: string[],
  options: {
    cwd?: string
    env?: NodeJS.ProcessEnv
    command?: string[]
    /** Run in its own process group and stop it as Ctrl-C would: SIGINT to the whole group. */
    group?: boolean
  } = {},
): Running {
  const [program, ...prefix] = options.command ?? [process.execPath, MAIN]
  const child = spawn(program!, [...prefix, ...args], {
    cwd: options.cwd ?? process.cwd(),
    // The command reads these; a test's own DATABASE_URL must not leak into a child unasked.
    env: { ...process.env, AFFILIATE_KIT_API_KEY: '', DATABASE_URL: '', PORT: '', HOST: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  })
  started.add({ child, group: options.group === true })
  let text = ''
  const listeners = new Set<() => void>()
  const collect = (chunk: Buffer) => {
    text += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = text.match(pattern)
          if (match) {
            listeners.delete(check)
            clearTimeout(timer)
            resolve(match)
          }
        }
        const timer = setTimeout(() => {
          listeners.delete(check)
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text}`))
        }, timeoutMs)
        listeners.add(check)
        void exited.then(() => setTimeout(() => {
          if (listeners.has(check)) {
            listeners.delete(check)
            clearTimeout(timer)
            reject(new Error(`process exited before ${pattern}; output:\n${text}`))
          }
        }, 50))
        check()
      })
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.group) process.kill(-child.pid!, 'SIGINT')
        else child.kill('SIGTERM')
      }
      return exited
    },
  }
}

/** A JSON request with the API key. */
export async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : null }
}

/** Runs the command to its end: exit code and output (stdout and stderr), trimmed. */
export async function runToEnd(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const child = run(args, options)
  const code = await child.exited
  return { code, output: child.output().trim() }
}

/** A port nothing listens on right now (bound, then released). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
