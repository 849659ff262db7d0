// A payer in a process of its own (paypal-child.ts, stripe-payer-child.ts): the kill -9 tests
// start it, may kill it, and read how it ended with what it printed.
import { spawn, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface PayerExit {
  code: number | null
  signal: NodeJS.Signals | null
  out: string
  err: string
}

/** Runs `test/support/payouts/<script>` with `args` as its JSON argument. */
export function payerProcess(script: string, args: object): { process: ChildProcess; exit: Promise<PayerExit> } {
  const path = join(dirname(fileURLToPath(import.meta.url)), script)
  const child = spawn(process.execPath, ['--import', 'tsx', path, JSON.stringify(args)], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exit = new Promise<PayerExit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })))
  return { process: child, exit }
}
