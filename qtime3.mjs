const { PGlite } = await import('@electric-sql/pglite')
const ep = PGlite.prototype.execProtocol
PGlite.prototype.execProtocol = async function (msg, opts) {
  const s = performance.now()
  const r = await ep.call(this, msg, opts)
  const text = Buffer.from(msg).toString('latin1').replace(/[^\x20-\x7e]+/g, ' ').slice(0, 60)
  console.error(`${s.toFixed(0).padStart(5)} +${(performance.now() - s).toFixed(1).padStart(6)} ${text}`)
  return r
}
const q = PGlite.prototype.query
PGlite.prototype.query = async function (...a) { const s = performance.now(); const r = await q.apply(this, a); console.error(`${s.toFixed(0)} query +${(performance.now()-s).toFixed(1)} ${String(a[0]).slice(0,60).replace(/\s+/g,' ')}`); return r }
const http = await import('node:http')
const emit = http.Server.prototype.emit
http.Server.prototype.emit = function (ev, ...a) { if (ev === 'request' || ev === 'listening') { console.error(performance.now().toFixed(0), 'server', ev); if (ev === 'request') a[1].once('finish', () => console.error(performance.now().toFixed(0), 'finished')) } return emit.call(this, ev, ...a) }
const w = process.stdout.write.bind(process.stdout)
process.stdout.write = (c, ...r) => { console.error(performance.now().toFixed(0), 'stdout write', String(c).slice(30, 60)); return w(c, ...r) }
console.error('main start', performance.now().toFixed(0))
process.argv = [process.argv[0], '/work/wt-lead/dist/cli/main.js', 'serve', '--port', '0', '--database', `pglite:${process.env.SDIR}`, '--log-level', 'info']
await import('/work/wt-lead/dist/cli/main.js')
console.error('main imported+ran', performance.now().toFixed(0))
