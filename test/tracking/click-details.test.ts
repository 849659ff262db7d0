// What a click records besides its link (docs/analytics.md "What a click records"): the campaign
// from the visit's query over the link's defaults, the referrer's host, the device and browser,
// the country from a trusted header or a MaxMind database, the click named in the signed referral.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { campaignValue, clickCampaign, countryCode, deviceOf, referrerHost } from '../../src/tracking/click-details.js'
import { countryLookup } from '../../src/tracking/country.js'
import { clickIdOf, readSignedReferral, signedReferralValue } from '../../src/core/model/signed-referral.js'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe('what a click records', () => {
  it("takes each campaign field from the visit's query, else from the link", () => {
    const query = new URLSearchParams('utm_source=youtube&utm_campaign=&sub1=video-42&sub5=%20x%20')
    expect(clickCampaign(query, { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' })).toEqual({
      utmSource: 'youtube',
      utmMedium: 'email',
      utmCampaign: 'spring',
      utmTerm: null,
      utmContent: null,
      sub1: 'video-42',
      sub2: null,
      sub3: null,
      sub4: null,
      sub5: 'x',
    })
    expect(clickCampaign(new URLSearchParams(), null).utmSource).toBeNull()
  })

  it('keeps campaign values short and printable', () => {
    expect(campaignValue('a\u0000b\nc')).toBe('abc')
    expect(campaignValue('x'.repeat(500))).toHaveLength(200)
    expect(campaignValue('   ')).toBeNull()
  })

  it("keeps only an http(s) referrer's host", () => {
    expect(referrerHost('https://WWW.YouTube.com/watch?v=1')).toBe('www.youtube.com')
    expect(referrerHost('android-app://com.google.android.gm/')).toBeNull()
    expect(referrerHost('not a url')).toBeNull()
    expect(referrerHost(null)).toBeNull()
  })

  it('classes devices and names browsers with ua-parser-js', () => {
    expect(deviceOf(IPHONE)).toEqual({ device: 'mobile', browser: 'Mobile Safari' })
    expect(deviceOf(IPAD)).toEqual({ device: 'tablet', browser: 'Mobile Safari' })
    expect(deviceOf(WINDOWS)).toEqual({ device: 'desktop', browser: 'Chrome' })
    expect(deviceOf('')).toEqual({ device: 'desktop', browser: null })
  })

  it('accepts only two-letter country codes, not Cloudflare\'s unknown ones', () => {
    expect(countryCode(' de ')).toBe('DE')
    expect(countryCode('XX')).toBeNull()
    expect(countryCode('T1')).toBeNull()
    expect(countryCode('DEU')).toBeNull()
    expect(countryCode(null)).toBeNull()
  })

  it('signs the click into the referral, and an old referral without one still verifies', () => {
    const salt = 'salt'
    const withClick = signedReferralValue(salt, { code: 'ANN', expires: 2_000_000_000, visitor: 'v'.repeat(16), click: 'c'.repeat(16) })
    expect(readSignedReferral(salt, withClick)).toEqual({ code: 'ANN', expires: 2_000_000_000, visitor: 'v'.repeat(16), click: 'c'.repeat(16) })
    expect(clickIdOf(withClick)).toBe('c'.repeat(16))
    // Another click under the same signature fails.
    expect(readSignedReferral(salt, withClick.replace('c'.repeat(16), 'd'.repeat(16)))).toBeNull()
    const without = signedReferralValue(salt, { code: 'ANN', expires: 2_000_000_000, visitor: 'v'.repeat(16) })
    expect(readSignedReferral(salt, without)).toEqual({ code: 'ANN', expires: 2_000_000_000, visitor: 'v'.repeat(16) })
    expect(clickIdOf(without)).toBeNull()
  })
})

describe('the country of a click', () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()] ?? null
  const database = fileURLToPath(new URL('../fixtures/maxmind/GeoLite2-Country-Test.mmdb', import.meta.url))

  it('reads only the configured header', async () => {
    const lookup = await countryLookup({ header: 'CF-IPCountry' })
    expect(lookup(headers({ 'cf-ipcountry': 'fr' }), '81.2.69.142')).toBe('FR')
    expect(lookup(headers({ 'x-vercel-ip-country': 'FR' }), '81.2.69.142')).toBeNull()
    expect(await (await countryLookup(undefined))(headers({ 'cf-ipcountry': 'FR' }), '81.2.69.142')).toBeNull()
  })

  it("finds the address's country in a MaxMind database when the header gives none", async () => {
    const lookup = await countryLookup({ header: 'CF-IPCountry', database })
    expect(lookup(headers({}), '81.2.69.142')).toBe('GB')
    expect(lookup(headers({}), '::ffff:89.160.20.112')).toBe('SE')
    expect(lookup(headers({}), '2001:218::1')).toBe('JP')
    expect(lookup(headers({ 'cf-ipcountry': 'DE' }), '81.2.69.142')).toBe('DE')
    expect(lookup(headers({}), '127.0.0.1')).toBeNull()
    expect(lookup(headers({}), '')).toBeNull()
  })

  it('fails at start for a database that is not there', async () => {
    await expect(countryLookup({ database: `${database}.missing` })).rejects.toThrow()
  })
})
