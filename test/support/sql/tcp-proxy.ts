// A TCP proxy to host:port that can be closed (refusing connections, cutting open ones) and
// reopened on the same port: a PostgreSQL server that goes away and comes back, for one test.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'

export async function tcpProxy(host: string, port: number) {
  let server: Server | null = null
  const sockets = new Set<Socket>()
  let bound = 0
  async function open() {
    server = createServer((client) => {
      const upstream = connect(port, host)
      sockets.add(client).add(upstream)
      client.pipe(upstream).pipe(client)
      const drop = () => {
        client.destroy()
        upstream.destroy()
        sockets.delete(client)
        sockets.delete(upstream)
      }
      client.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
    })
    await new Promise<void>((resolve) => server!.listen(bound, '127.0.0.1', resolve))
    bound = (server.address() as AddressInfo).port
  }
  async function close() {
    if (!server) return
    const closing = server
    server = null
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    await new Promise<void>((resolve) => closing.close(() => resolve()))
  }
  await open()
  return { port: bound, open, close }
}
