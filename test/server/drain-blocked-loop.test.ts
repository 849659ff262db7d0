// The stop's end of listening when the event loop was blocked (a PGlite statement runs on it):
// connections the kernel queued meanwhile are answered with `Connection: close`, not reset by
// the listening socket's close. The client runs in another process, so that it connects while
// this one is blocked.
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { drainOnClose } from '../../src/server/drain.js'

// One POST, then, when the test says "go" on stdin, 24 new connections at once, one POST on each;
// then it prints what each got. The test says "go" just before it blocks the server's loop for a
// second, so they arrive while it is blocked, however slowly this process runs on a loaded machine
// (a connection still arriving as the stop closes the listening socket could be reset whatever the
// server does: the burst ends long before that).
const CLIENT = `
const { request } = require('node:http')
const port = Number(process.argv[1])
const send = () => new Promise((resolve) => {
  const req = request({ host: '127.0.0.1', port, method: 'POST', agent: false }, (res) => {
    res.resume()
    res.on('end', () => resolve(res.statusCode + ' ' + res.headers.connection))
  })
  req.on('error', (error) => resolve(error.code))
  req.end('x')
})
const first = send()
first.then(() => console.log('answered'))
process.stdin.once('data', () => {
  process.stdin.pause()
  const burst = Array.from({ length: 24 }, send)
  Promise.all([first, ...burst]).then((outcomes) => console.log(JSON.stringify(outcomes)))
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

    const client = spawn(process.execPath, ['-e', CLIENT, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] })
    const exited = new Promise((resolve) => client.once('exit', resolve))
    let output = ''
    client.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    while (!output.includes('answered')) await new Promise((resolve) => setTimeout(resolve, 5))

    await new Promise<void>((resolve) => client.stdin.end('go\n', () => resolve()))
    const closed = drain.close()
    // A synchronous second, as a long embedded-database statement, across the grace's end.
    const until = Date.now() + 1000
    while (Date.now() < until);
    await closed
    await exited

    const outcomes = JSON.parse(output.slice(output.indexOf('['))) as string[]
    expect(outcomes.filter((outcome) => outcome === 'ECONNRESET')).toEqual([])
    expect(outcomes.filter((outcome) => !['200 keep-alive', '200 close', 'ECONNREFUSED'].includes(outcome))).toEqual([])
    // Connections made during the block were queued and then answered with their close.
    expect(outcomes.filter((outcome) => outcome === '200 close').length).toBeGreaterThanOrEqual(3)
    expect(outcomes).toHaveLength(25)
  })
})
