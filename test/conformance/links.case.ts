// Links (docs/links.md): an affiliate's many links, their keys (never a referral code or another
// link's key, in any case and under concurrent writers), destinations, short domains, UTM
// defaults and QR codes; what a token resolves to; aliases as links; nothing across projects.
import { describe, expect, it } from 'vitest'
import type { CaseContext } from './harness.js'
import { expectError } from './helpers.js'

const LINKS = { publicUrl: 'https://go.example', allowedOrigins: ['https://shop.example', 'https://blog.example'], domains: ['ann.link'] }

export function linkCases(context: CaseContext): void {
  describe('links', () => {
    it('creates links with a key, a destination, a short domain and UTM defaults, or a key made from the referral code', async () => {
      const { program, clock } = await context.program({ links: LINKS })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const youtube = await program.links.create({
        affiliate: 'ANN@example.com',
        key: 'ann-youtube',
        destination: 'https://shop.example/pricing?plan=pro#top',
        utmSource: ' youtube ',
        utmMedium: 'video',
        utmCampaign: 'spring sale',
      })
      expect(youtube).toEqual({
        id: youtube.id,
        affiliateId: ann.id,
        key: 'ann-youtube',
        url: 'https://go.example/r/ann-youtube',
        destination: 'https://shop.example/pricing?plan=pro#top',
        domain: null,
        utmSource: 'youtube',
        utmMedium: 'video',
        utmCampaign: 'spring sale',
        utmTerm: null,
        utmContent: null,
        createdAt: clock.now(),
      })
      const short = await program.links.create({ affiliate: ann.id, key: 'Ann-Pod', domain: 'ANN.link', utmContent: '' })
      expect(short).toMatchObject({ key: 'Ann-Pod', domain: 'ann.link', url: 'https://ann.link/Ann-Pod', destination: null, utmContent: null })
      const generated = await program.links.create({ affiliate: ann.id })
      expect(generated.key).toMatch(/^ann-[a-z2-9]{4}$/)
      expect(await program.links.get(generated.id)).toEqual(generated)
      // A short URL is built only from configured URLs: without a public URL there is none.
      const bare = (await context.program()).program
      const bob = await bare.affiliates.create({ email: 'bob@example.com' })
      expect((await bare.links.create({ affiliate: bob.id, key: 'bob-x', destination: 'http://anywhere.example/x' })).url).toBeNull()
    })

    it('keeps every token naming one affiliate: keys against referral codes and keys, both ways, in any case', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
      await program.links.create({ affiliate: ann.id, key: 'ann-youtube' })
      await expectError(program.links.create({ affiliate: bob.id, key: 'ANN-YOUTUBE' }), 'conflict', 'key')
      await expectError(program.links.create({ affiliate: bob.id, key: 'Ann' }), 'conflict', 'key')
      // Its own referral code is its default link already: a link with that key would never be reached.
      await expectError(program.links.create({ affiliate: bob.id, key: 'BOB' }), 'conflict', 'key')
      await expectError(program.affiliates.create({ email: 'cy@example.com', referralCode: 'Ann-YouTube' }), 'conflict', 'referralCode')
      await expectError(program.affiliates.update(bob.id, { referralCode: 'ann-youtube' }), 'conflict', 'referralCode')
      await expectError(program.affiliates.addAlias(bob.id, 'ann-youtube'), 'conflict', 'alias')
      const bobs = await program.links.create({ affiliate: bob.id, key: 'bob-blog' })
      await expectError(program.links.update(bobs.id, { key: 'ann-YouTube' }), 'conflict', 'key')
      await expectError(program.links.update(bobs.id, { key: 'ann' }), 'conflict', 'key')
      expect((await program.links.update(bobs.id, { key: 'Bob-Blog' })).key).toBe('Bob-Blog')
      expect((await program.links.list()).total).toBe(2)
      expect((await program.affiliates.get(bob.id)).referralCode).toBe('bob')
      expect((await program.affiliates.list()).total).toBe(2)
    })

    it('lists links newest first, all of them or one affiliate\'s (by id or email)', async () => {
      const { program, clock } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const bob = await program.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
      const keys = ['ann-one', 'bob-one', 'ann-two', 'ann-three']
      for (const key of keys) {
        await program.links.create({ affiliate: key.startsWith('ann') ? ann.id : bob.id, key })
        clock.advance({ minutes: 1 })
      }
      expect((await program.links.list()).items.map((link) => link.key)).toEqual(['ann-three', 'ann-two', 'bob-one', 'ann-one'])
      const anns = await program.links.list({ affiliate: 'ann@example.com', limit: 2, offset: 1 })
      expect(anns).toMatchObject({ total: 3, limit: 2, offset: 1 })
      expect(anns.items.map((link) => link.key)).toEqual(['ann-two', 'ann-one'])
      expect((await program.links.list({ affiliate: bob.id })).items.map((link) => link.key)).toEqual(['bob-one'])
      expect((await program.links.list({ limit: 1000 })).limit).toBe(100)
      await expectError(program.links.list({ affiliate: 'nobody@example.com' }), 'not_found')
      await expectError(program.links.list({ limit: 0 }), 'invalid_request', 'limit')
    })

    it('changes a link field by field (null clears one) and deletes it', async () => {
      const { program } = await context.program({ links: LINKS })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const link = await program.links.create({ affiliate: ann.id, key: 'ann-blog', destination: 'https://blog.example/a', utmSource: 'blog', utmTerm: 'shoes' })
      const changed = await program.links.update(link.id, { key: 'ann-journal', destination: null, domain: 'ann.link', utmTerm: null, utmCampaign: 'autumn' })
      expect(changed).toEqual({ ...link, key: 'ann-journal', url: 'https://ann.link/ann-journal', destination: null, domain: 'ann.link', utmTerm: null, utmCampaign: 'autumn' })
      expect(await program.links.update(link.id, {})).toEqual(changed)
      expect(await program.links.resolve('ann-blog')).toBeNull()
      expect((await program.links.resolve('ANN-journal'))?.link?.id).toBe(link.id)
      await program.links.delete(link.id)
      await expectError(program.links.get(link.id), 'not_found', 'id')
      await expectError(program.links.update(link.id, { utmSource: 'x' }), 'not_found', 'id')
      await expectError(program.links.delete(link.id), 'not_found', 'id')
      expect(await program.links.resolve('ann-journal')).toBeNull()
      // The key is free again.
      expect((await program.links.create({ affiliate: ann.id, key: 'ann-journal' })).key).toBe('ann-journal')
    })

    it('refuses bad keys, destinations, domains and UTM values with a 400 naming the field, writing nothing', async () => {
      const { program } = await context.program({ links: LINKS })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ key: 'no spaces' }, 'key'],
        [{ key: 'ab' }, 'key'],
        [{ key: 'x'.repeat(65) }, 'key'],
        [{ destination: '/pricing' }, 'destination'],
        [{ destination: 'ftp://shop.example/file' }, 'destination'],
        [{ destination: 'javascript:alert(1)' }, 'destination'],
        [{ destination: 'https://user:secret@shop.example/' }, 'destination'],
        [{ destination: 'https://evil.example/pricing' }, 'destination'],
        [{ destination: 'https://shop.example/a b' }, 'destination'],
        [{ destination: `https://shop.example/${'a'.repeat(2100)}` }, 'destination'],
        [{ destination: 42 }, 'destination'],
        [{ domain: 'bob.link' }, 'domain'],
        [{ utmSource: 'x'.repeat(201) }, 'utmSource'],
        [{ utmCampaign: 'line\nbreak' }, 'utmCampaign'],
        [{ utmContent: 'tab\there' }, 'utmContent'],
        [{ unknown: 'field' }, 'unknown'],
      ]
      for (const [fields, field] of bad) await expectError(program.links.create({ affiliate: ann.id, ...fields } as never), 'invalid_request', field)
      await expectError(program.links.create({ affiliate: 999_999 }), 'not_found')
      await expectError(program.links.create({ affiliate: 'not an email' } as never), 'invalid_request', 'affiliate')
      await expectError(program.links.create({} as never), 'invalid_request', 'affiliate')
      const link = await program.links.create({ affiliate: ann.id, key: 'ann-ok', destination: 'https://shop.example/deep/page?x=1' })
      for (const [fields, field] of bad.slice(0, 15)) await expectError(program.links.update(link.id, fields as never), 'invalid_request', field)
      expect((await program.links.list()).items).toEqual([link])
      // Without short domains configured, any domain is refused; without allowed origins, any http(s) origin is taken.
      const open = (await context.program({ links: { publicUrl: 'https://go.example' } })).program
      const bob = await open.affiliates.create({ email: 'bob@example.com' })
      await expectError(open.links.create({ affiliate: bob.id, domain: 'ann.link' }), 'invalid_request', 'domain')
      expect((await open.links.create({ affiliate: bob.id, destination: 'https://Anywhere.Example:443/x' })).destination).toBe('https://anywhere.example/x')
    })

    it('resolves a token to the affiliate whose referral code or link key it is, the code first', async () => {
      const { program } = await context.program({ links: LINKS })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      await program.affiliates.update(ann.id, { status: 'inactive' })
      const link = await program.links.create({ affiliate: ann.id, key: 'ann-youtube', destination: 'https://shop.example/p', utmSource: 'yt' })
      const affiliate = { id: ann.id, email: 'ann@example.com', referralCode: 'ann', status: 'inactive' }
      expect(await program.links.resolve('ANN')).toEqual({ affiliate, link: null })
      expect(await program.links.resolve('Ann-YouTube')).toEqual({ affiliate, link })
      for (const token of ['nobody', 'ab', 'no spaces', ' ann', 'x'.repeat(65), '', 'ann/youtube']) expect(await program.links.resolve(token)).toBeNull()
      // Every place that takes a referral code takes a link key too.
      expect((await program.trackClick({ referralCode: 'ann-YOUTUBE' })).affiliateId).toBe(ann.id)
      // Changing its own code to one of its keys is allowed (as for aliases); the code wins then.
      await program.affiliates.update(ann.id, { referralCode: 'ann-youtube' })
      expect(await program.links.resolve('ann-youtube')).toEqual({ affiliate: { ...affiliate, referralCode: 'ann-youtube' }, link: null })
    })

    it('keeps link aliases as links with only a key, listed by aliases(), and deletes links with their affiliate', async () => {
      const { program } = await context.program()
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      expect(await program.affiliates.addAlias(ann.id, 'ann-old')).toEqual({ alias: 'ann-old', created: true })
      const [alias] = (await program.links.list({ affiliate: ann.id })).items
      expect(alias).toMatchObject({ affiliateId: ann.id, key: 'ann-old', destination: null, domain: null, utmSource: null, utmMedium: null, utmCampaign: null, utmTerm: null, utmContent: null })
      const link = await program.links.create({ affiliate: ann.id, key: 'ann-new', destination: 'https://shop.example/' })
      expect(await program.affiliates.aliases(ann.id)).toEqual(['ann-old', 'ann-new'])
      expect(await program.affiliates.addAlias(ann.id, 'ANN-NEW')).toEqual({ alias: 'ANN-NEW', created: false })
      await program.links.update(alias!.id, { utmSource: 'newsletter' })
      expect((await program.links.resolve('ann-old'))?.link).toMatchObject({ utmSource: 'newsletter' })
      await program.affiliates.delete(ann.id)
      await expectError(program.links.get(link.id), 'not_found')
      expect(await program.links.resolve('ann-old')).toBeNull()
      expect((await program.links.list()).total).toBe(0)
    })

    it('sees nothing of another project', async () => {
      const { program } = await context.program()
      const other = (await context.program()).program
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const link = await program.links.create({ affiliate: ann.id, key: 'shared-key' })
      await expectError(other.links.get(link.id), 'not_found')
      await expectError(other.links.update(link.id, { key: 'taken-here' }), 'not_found')
      await expectError(other.links.delete(link.id), 'not_found')
      await expectError(other.links.qr(link.id), 'not_found')
      await expectError(other.links.create({ affiliate: ann.id }), 'not_found')
      await expectError(other.links.list({ affiliate: ann.id }), 'not_found')
      expect(await other.links.resolve('shared-key')).toBeNull()
      expect(await other.links.resolve('ann')).toBeNull()
      expect((await other.links.list()).total).toBe(0)
      // The same key in two projects is two links.
      const bob = await other.affiliates.create({ email: 'bob@example.com', referralCode: 'bob' })
      expect((await other.links.create({ affiliate: bob.id, key: 'SHARED-KEY' })).affiliateId).toBe(bob.id)
      expect((await program.links.get(link.id)).key).toBe('shared-key')
    })

    it('lets one of 8 concurrent creates of the same key win; the others are refused naming the key', async () => {
      const { program } = await context.program()
      const affiliates = []
      for (let n = 0; n < 8; n += 1) affiliates.push(await program.affiliates.create({ email: `a${n}@example.com`, referralCode: `code-${n}` }))
      const results = await Promise.allSettled(affiliates.map((affiliate, n) => program.links.create({ affiliate: affiliate.id, key: n % 2 === 0 ? 'launch' : 'LAUNCH' })))
      const won = results.filter((result) => result.status === 'fulfilled')
      expect(won).toHaveLength(1)
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'conflict', field: 'key' })
      const { items } = await program.links.list()
      expect(items).toHaveLength(1)
      expect((await program.links.resolve('launch'))?.affiliate.id).toBe(items[0]!.affiliateId)
    })

    it('draws a QR code of the short URL as SVG or PNG of the size asked, and refuses one without a short URL', async () => {
      const { program } = await context.program({ links: LINKS })
      const ann = await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ann' })
      const link = await program.links.create({ affiliate: ann.id, key: 'ann-qr' })
      const svg = await program.links.qr(link.id)
      expect(svg.contentType).toBe('image/svg+xml')
      expect(svg.content).toMatch(/^<svg [^>]*width="256" height="256"/)
      const png = await program.links.qr(link.id, { format: 'png', size: 118 })
      expect(png.contentType).toBe('image/png')
      const bytes = png.content as Uint8Array
      expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      expect([view.getUint32(16), view.getUint32(20)]).toEqual([118, 118])
      await expectError(program.links.qr(link.id, { format: 'gif' as never }), 'invalid_request', 'format')
      await expectError(program.links.qr(link.id, { size: 63 }), 'invalid_request', 'size')
      await expectError(program.links.qr(link.id, { size: 1025 }), 'invalid_request', 'size')
      await expectError(program.links.qr(999_999), 'not_found', 'id')
      const bare = (await context.program()).program
      const bob = await bare.affiliates.create({ email: 'bob@example.com' })
      const unreachable = await bare.links.create({ affiliate: bob.id, key: 'bob-qr' })
      await expectError(bare.links.qr(unreachable.id), 'conflict')
    })
  })
}
