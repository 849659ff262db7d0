// `affiliate-kit serve` and affiliates' links (docs/links.md "The standalone server"): the config's
// tracking gives links their short URL (tracking.publicUrl, else portal.publicUrl, and prefix),
// the origins their destinations may name (the landing URL's and allowedOrigins) and the short
// domains (tracking.linkDomains); a bad linkDomains stops the start naming it.
import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/cli/config.js'
import { configuredLinks } from '../../src/cli/link-options.js'
import { api, run } from '../support/cli/process.js'
import { tempDirs } from '../support/cli/temp-dirs.js'

const tempDir = tempDirs('affiliate-kit-cli-links')
const KEY = `rgk_${'Lnk0Test1Key2'.repeat(3)}xyz`

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** A GET sent with the Host header a reverse proxy would pass on (fetch cannot set Host). */
function redirect(port: number, host: string, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, 'user-agent': BROWSER } }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }))
    })
    req.on('error', reject)
    req.end()
  })
}

const write = (dir: string, config: unknown) => {
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
  return join(dir, 'config.json')
}

describe('config: links', () => {
  it('derives the links option from tracking: public URL and prefix, allowed origins, short domains', () => {
    const dir = tempDir()
    const tracking = { landingUrl: 'https://shop.example/welcome', allowedOrigins: ['https://blog.example'], publicUrl: 'https://go.example/', prefix: '/go', linkDomains: ['ann.link', 'Promo.Example'] }
    expect(configuredLinks(loadConfig(write(dir, { tracking })))).toEqual({
      publicUrl: 'https://go.example',
      prefix: '/go',
      allowedOrigins: ['https://shop.example', 'https://blog.example'],
      domains: ['ann.link', 'Promo.Example'],
    })
    // Without tracking.publicUrl the portal's public URL is where links are reached (as the portal's referral link).
    const portal = { enabled: true, publicUrl: 'https://partners.example.com' }
    expect(configuredLinks(loadConfig(write(dir, { tracking: { landingUrl: 'https://shop.example/' }, portal })))).toEqual({
      publicUrl: 'https://partners.example.com',
      prefix: '/r',
      allowedOrigins: ['https://shop.example'],
      domains: [],
    })
    expect(configuredLinks(loadConfig(write(dir, {})))).toBeUndefined()
  })

  it.each([
    [['https://go.example'], /"tracking.linkDomains.0" must be a host name such as go.example/],
    [['go.example:8080'], /"tracking.linkDomains.0" must be a host name/],
    [['localhost'], /"tracking.linkDomains.0" must be a host name/],
    [['ok.example', 'bad_host.example'], /"tracking.linkDomains.1" must be a host name/],
    ['go.example', /"tracking.linkDomains" must be a list of host names/],
  ])('refuses tracking.linkDomains %j, naming the key', (linkDomains, message) => {
    expect(() => loadConfig(write(tempDir(), { tracking: { landingUrl: 'https://shop.example/', linkDomains } }))).toThrow(message)
  })
})

describe('affiliate-kit serve: links', () => {
  it('builds short URLs and QR codes from the config and holds destinations to the allowed origins', async () => {
    const dir = tempDir()
    write(dir, { tracking: { landingUrl: 'https://shop.example/', allowedOrigins: ['https://blog.example'], publicUrl: 'https://go.example', linkDomains: ['ann.link'] } })
    const server = run(['serve', '--port', '0', '--database', 'memory', '--config', 'config.json'], { cwd: dir, env: { AFFILIATE_KIT_API_KEY: KEY } })
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/)
    expect((await api(url!, KEY, 'POST', '/affiliates', { email: 'ann@example.com', referral_code: 'ann' })).status).toBe(201)
    const youtube = await api(url!, KEY, 'POST', '/links', { affiliate: 'ann@example.com', key: 'ann-youtube', destination: 'https://blog.example/review', utm_source: 'youtube' })
    expect(youtube.status).toBe(201)
    expect(youtube.body!.data).toMatchObject({ url: 'https://go.example/r/ann-youtube', destination: 'https://blog.example/review' })
    const short = await api(url!, KEY, 'POST', '/links', { affiliate: 'ann@example.com', key: 'ann-pod', domain: 'ann.link', destination: 'https://shop.example/pricing' })
    expect(short.body!.data).toMatchObject({ url: 'https://ann.link/ann-pod' })
    const elsewhere = await api(url!, KEY, 'POST', '/links', { affiliate: 'ann@example.com', destination: 'https://evil.example/' })
    expect([elsewhere.status, elsewhere.body!.error]).toEqual([400, 'destination: https://evil.example is not an allowed origin (allowed: https://shop.example, https://blog.example)'])
    const otherDomain = await api(url!, KEY, 'POST', '/links', { affiliate: 'ann@example.com', domain: 'bob.link' })
    expect([otherDomain.status, otherDomain.body!.error]).toEqual([400, 'domain: must be one of the short domains ann.link'])
    const qr = await fetch(`${url}/links/${short.body!.data.id}/qr?format=png&size=160`, { headers: { authorization: `Bearer ${KEY}` } })
    expect([qr.status, qr.headers.get('content-type')]).toEqual([200, 'image/png'])
    const bytes = new Uint8Array(await qr.arrayBuffer())
    expect(new DataView(bytes.buffer).getUint32(16)).toBe(160)
    // The short domain serves the link at its root (a reverse proxy sends ann.link's requests here).
    const port = Number(new URL(url!).port)
    const visit = (host: string, path: string) => redirect(port, host, path)
    expect(await visit('ann.link', '/ann-pod')).toMatchObject({ status: 302, location: expect.stringMatching(/^https:\/\/shop\.example\/pricing\?ak_ref=ann\./) })
    expect(await visit('ann.link', '/r/ann-youtube')).toMatchObject({ status: 302, location: expect.stringMatching(/^https:\/\/blog\.example\/review\?utm_source=youtube&ak_ref=ann\./) })
    expect((await visit('other.example', '/ann-pod')).status).toBe(404)
    expect(await server.stop()).toBe(0)
  }, 60_000)
})
