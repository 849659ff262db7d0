// Load generation shared by the HTTP benches: a fixed number of keep-alive requests in flight
// for a fixed time against a server in a child process, counting answers and the server's CPU
// time per answer (asked of the child over IPC).
import type { ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'

export interface BenchServer {
  child: ChildProcess
  port: number
}

export interface Load {
  method: 'GET' | 'POST'
  path: string
  /** The same headers for every request, or new ones per request (its sequence number). */
  headers: Record<string, string> | ((sent: number) => Record<string, string>)
  body?: () => string
}

export interface Figure {
  rps: number
  /** Server CPU microseconds per answered request: what the server spends, whatever the load generator can push. */
  cpuUs: number
}

export interface LoadShape {
  concurrency: number
  warmupMs: number
  durationMs: number
}

/** CPU time (user + system, microseconds) the server process has used so far. */
export function serverCpu(server: BenchServer): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system))
    server.child.send('cpu')
  })
}

export async function measure(server: BenchServer, load: Load, shape: LoadShape): Promise<Figure> {
  const { port } = server
  const agent = new Agent({ keepAlive: true, maxSockets: shape.concurrency })
  let counting = false
  let count = 0
  let errors = 0
  let sent = 0
  let stop = false
  const once = () =>
    new Promise<void>((resolve) => {
      sent += 1
      const body = load.body?.()
      const base = typeof load.headers === 'function' ? load.headers(sent) : load.headers
      const headers = body ? { ...base, 'content-length': String(Buffer.byteLength(body)) } : base
      const req = request({ host: '127.0.0.1', port, method: load.method, path: load.path, headers, agent }, (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode! >= 400) errors += 1
          if (counting) count += 1
          resolve()
        })
      })
      req.on('error', () => {
        errors += 1
        resolve()
      })
      req.end(body)
    })
  const worker = async () => {
    while (!stop) await once()
  }
  const workers = Array.from({ length: shape.concurrency }, worker)
  await new Promise((resolve) => setTimeout(resolve, shape.warmupMs))
  const cpuBefore = await serverCpu(server)
  counting = true
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, shape.durationMs))
  counting = false
  const elapsed = performance.now() - started
  const cpu = (await serverCpu(server)) - cpuBefore
  stop = true
  await Promise.all(workers)
  agent.destroy()
  if (errors > 0) console.log(`  (${errors} error responses)`)
  return { rps: (count * 1000) / elapsed, cpuUs: cpu / count }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
