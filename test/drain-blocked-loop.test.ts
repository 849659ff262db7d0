// The stop's end of listening when the event loop was blocked (a PGlite statement runs on it):
// connections the kernel queued meanwhile are answered with `Connection: close`, not reset by
// the listening socket's close. The client runs in another process, so that it connects while
// this one is blocked.
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { drainOnClose } from '../src/server/drain.js'

// A new connection every 10 ms, one POST on each, until the server refuses connections.
const CLIENT = `
const { request } = require('node:http')
const port = Number(process.argv[1])
const outcomes = []
const send = () => new Promise((resolve) => {
  const req = request({ host: '127.0.0.1', port, method: 'POST', agent: false }, (res) => {
    res.resume()
    res.on('end', () => resolve(res.statusCode + ' ' + res.headers.connection))
  })
  req.on('error', (error) => resolve(error.code))
  req.end('x')
})
const pending = []
const timer = setInterval(() => {
  const sent = send().then((outcome) => {
    outcomes.push(outcome)
    if (outcomes.length === 1) console.log('answered')
    if (outcome === 'ECONNREFUSED') clearInterval(timer)
  })
  pending.push(sent)
}, 10)
setTimeout(() => clearInterval(timer), 20000).unref()
process.on('beforeExit', async () => {
  if (pending.length === 0) return
  await Promise.all(pending.splice(0))
  console.log(JSON.stringify(outcomes))
})
`

let server: Server | undefined
afterEach(() => server?.closeAllConnections())

describe('drain after a blocked event loop', () => {
  it('connections that arrived while the loop was blocked across the grace are answered with Connection: close; none is reset', async () => {
    server = createServer((request, response) => {
      request.resume()
      request.on('end', () => response.end('ok'))
    })
    const drain = drainOnClose(server, { graceMs: 100 })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo

    const client = spawn(process.execPath, ['-e', CLIENT, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    client.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    while (!output.includes('answered')) await new Promise((resolve) => setTimeout(resolve, 5))

    const closed = drain.close()
    // A synchronous 400 ms, as a long embedded-database statement, across the grace's end.
    const until = Date.now() + 400
    while (Date.now() < until);
    await closed
    await new Promise((resolve) => client.once('exit', resolve))

    const outcomes = JSON.parse(output.slice(output.indexOf('['))) as string[]
    expect(outcomes.filter((outcome) => outcome === 'ECONNRESET')).toEqual([])
    expect(outcomes.filter((outcome) => !['200 keep-alive', '200 close', 'ECONNREFUSED'].includes(outcome))).toEqual([])
    // Connections made during the block were queued and then answered with their close.
    expect(outcomes.filter((outcome) => outcome === '200 close').length).toBeGreaterThanOrEqual(3)
    expect(outcomes.at(-1)).toBe('ECONNREFUSED')
  })
})
