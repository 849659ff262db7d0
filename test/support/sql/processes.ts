// Spawns child.ts processes, waits until all are ready, starts them at once, collects results.
import { spawn, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'child.ts')

export interface Child {
  process: ChildProcess
  /** Resolves with the first stdout line equal to `text`. */
  waitFor(text: string): Promise<void>
  /** Resolves with the last stdout line when the process exits. */
  result: Promise<string>
}

export function startChild(mode: string, args: object): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, mode, JSON.stringify(args)], {
    env: process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const waiters: Array<{ text: string; resolve: () => void }> = []
  let stderr = ''
  let buffer = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
      lines.push(line)
      for (const waiter of waiters.filter((candidate) => candidate.text === line)) waiter.resolve()
    }
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    process: child,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        if (lines.includes(text)) return resolve()
        waiters.push({ text, resolve })
        void exited.then(() => reject(new Error(`child exited before "${text}": ${stderr}`)))
      }),
    result: exited.then((code) => {
      if (code !== 0) throw new Error(`child ${mode} exited with ${code}: ${stderr}`)
      return lines[lines.length - 1]!
    }),
  }
}

/** Starts children, waits for all to be ready, then releases them together. */
export async function runTogether<T>(children: Child[]): Promise<T[]> {
  await Promise.all(children.map((child) => child.waitFor('ready')))
  for (const child of children) child.process.stdin!.write('go\n')
  return Promise.all(children.map(async (child) => JSON.parse(await child.result) as T))
}
