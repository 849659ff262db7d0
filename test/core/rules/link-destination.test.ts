// Where a link sends its visitor (docs/links.md "UTM defaults"): the destination or the landing
// URL, each UTM default the link sets appended unless the URL names it, the URL's own query kept
// as written.
import { describe, expect, it } from 'vitest'
import { linkDestination } from '../../../src/core/rules/link-destination.js'

const none = { destination: null, utmSource: null, utmMedium: null, utmCampaign: null, utmTerm: null, utmContent: null }

describe('a link destination', () => {
  it('is the landing URL for a link without a destination, and the destination itself without UTM defaults', () => {
    expect(linkDestination(none, 'https://shop.example/')).toBe('https://shop.example/')
    expect(linkDestination({ ...none, destination: 'https://shop.example/p?q=a%20b#top' }, 'https://shop.example/')).toBe('https://shop.example/p?q=a%20b#top')
  })

  it('appends the UTM defaults in their order, encoded, keeping the query as written and the fragment', () => {
    const link = { ...none, destination: 'https://shop.example/p?q=a%20b#top', utmSource: 'you tube', utmCampaign: 'spring&summer' }
    expect(linkDestination(link, 'https://shop.example/')).toBe('https://shop.example/p?q=a%20b&utm_source=you%20tube&utm_campaign=spring%26summer#top')
    expect(linkDestination({ ...none, utmMedium: 'video', utmTerm: 'shoes', utmContent: 'v2' }, 'https://shop.example/')).toBe('https://shop.example/?utm_medium=video&utm_term=shoes&utm_content=v2')
  })

  it('leaves a UTM parameter the URL names already as it is', () => {
    const link = { ...none, destination: 'https://shop.example/?utm_source=newsletter', utmSource: 'youtube', utmMedium: 'video' }
    expect(linkDestination(link, 'https://shop.example/')).toBe('https://shop.example/?utm_source=newsletter&utm_medium=video')
  })
})
