// The country of a click (docs/analytics.md "Country"): from a header the proxy in front sets and
// the configuration trusts (CF-IPCountry, X-Vercel-IP-Country, CloudFront-Viewer-Country), else
// from a MaxMind .mmdb database (GeoLite2 or GeoIP2 Country / City) read with the maxmind reader.
// Nothing else is kept of the address.
import { open, validate, type CountryResponse, type Reader } from 'maxmind'
import { countryCode } from './click-details.js'

export interface CountryOptions {
  /** A request header your proxy sets to the visitor's country and strips from what clients send, e.g. `CF-IPCountry`. @default none */
  header?: string
  /** The path of a MaxMind country or city database (.mmdb), read once at start. @default none */
  database?: string
}

export type CountryLookup = (header: (name: string) => string | null, address: string) => string | null

/** The lookup the options describe; with a database, opened before the first lookup answers from it. */
export async function countryLookup(options: CountryOptions | undefined): Promise<CountryLookup> {
  const header = options?.header?.toLowerCase()
  const reader: Reader<CountryResponse> | null = options?.database ? await open<CountryResponse>(options.database, { cache: { max: 5000 } }) : null
  return (read, address) => {
    const given = header ? countryCode(read(header)) : null
    const ip = address.startsWith('::ffff:') ? address.slice(7) : address
    if (given || !reader || !validate(ip)) return given
    return countryCode(reader.get(ip)?.country?.iso_code)
  }
}
