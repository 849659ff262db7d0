// The graceful stop of a node:http server (serve on SIGTERM or SIGINT). HTTP/1.1 has one way to
// tell a keep-alive client "no more requests here": an answer with `Connection: close`; a server
// that closes a connection while a request is on its way to it resets that request. So a stop
// marks every answer from then on `Connection: close`, still takes new connections for a moment
// (those the kernel has already accepted are read, not reset), then stops listening and closes a
// connection only once it has been idle for a while: one whose client is busy gets its close
// with its next answer instead. It resolves when every connection is closed.
import type { Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

export interface DrainTimings {
  /** How long a stopping server still listens. @default 250 */
  graceMs?: number
  /**
   * How long a connection must have been idle to be closed by the stop: the server's own
   * keep-alive timeout, so the stop closes no idle connection sooner than the server would anyway
   * (a client sending on a connection at the moment it is closed sees it reset; on a loaded
   * machine a keep-alive client's next request came more than a second after its last answer).
   * @default server.keepAliveTimeout (5000)
   */
  idleMs?: number
}

export interface Drain {
  /** Stops the server as described above; the same promise on every call. */
  close(): Promise<void>
}

interface Connection {
  requests: number
  idleSince: number
}

/** Watches the server's connections from now on: call it before the server listens. */
export function drainOnClose(server: Server, { graceMs = 250, idleMs = server.keepAliveTimeout || 5000 }: DrainTimings = {}): Drain {
  let draining = false
  const connections = new Map<Socket, Connection>()
  const unanswered = new Set<ServerResponse>()
  let accepted = 0
  server.on('connection', (socket: Socket) => {
    accepted += 1
    connections.set(socket, { requests: 0, idleSince: Date.now() })
    socket.once('close', () => connections.delete(socket))
  })
  server.on('request', (request, response: ServerResponse) => {
    const connection = connections.get(request.socket)
    if (connection) connection.requests += 1
    if (draining) response.setHeader('connection', 'close')
    else unanswered.add(response)
    response.once('close', () => {
      unanswered.delete(response)
      if (connection) {
        connection.requests -= 1
        connection.idleSince = Date.now()
      }
    })
  })
  // Closing the listening socket resets the connections the kernel has queued on it, and node
  // takes about one of them per turn of the event loop: a loop blocked at the grace's end (a
  // PGlite statement runs on it) leaves many. So it closes after a turn that took none, or after
  // another grace when connections keep coming.
  const closeOnceAccepted = (stopListening: () => void) => {
    const giveUpAt = Date.now() + graceMs
    const turn = (seen: number) =>
      setTimeout(() => {
        if (accepted === seen || Date.now() >= giveUpAt) stopListening()
        else turn(accepted)
      }, 1)
    turn(accepted)
  }
  let closing: Promise<void> | undefined
  return {
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        draining = true
        // Answers under way close their connection after them.
        for (const response of unanswered) if (!response.headersSent) response.setHeader('connection', 'close')
        const stopListening = () => {
          // net's close, not http's: http's would also close at once the connections idle right now.
          NetServer.prototype.close.call(server, () => {
            clearInterval(sweep)
            resolve()
          })
          const sweep = setInterval(() => {
            const now = Date.now()
            // A request already in the socket's buffer, not yet parsed, is not idleness.
            for (const [socket, connection] of connections) if (connection.requests === 0 && socket.readableLength === 0 && now - connection.idleSince >= idleMs) socket.destroy()
          }, Math.min(100, idleMs / 4))
        }
        setTimeout(() => closeOnceAccepted(stopListening), graceMs)
      })),
  }
}
