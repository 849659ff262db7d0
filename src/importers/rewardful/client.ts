// Rewardful's REST API as the importer reads it: HTTP Basic with the API secret as the user name,
// pages of `data` followed through `pagination.next_page`, 429s retried after Retry-After
// (http-json.ts). https://developers.rewardful.com/rest-api/overview
import { baseUrl, getJson, type ToolLimits } from '../http-json.js'
import { pageGuard } from '../paging.js'
import { ImportSourceError } from '../source.js'

export const REWARDFUL_API_URL = 'https://api.getrewardful.com/v1'

export interface RewardfulClientOptions {
  apiKey: string
  /** Base URL including the version prefix. @default https://api.getrewardful.com/v1 */
  apiUrl?: string
  /** Told before each retry of a 429 (the CLI prints it on one line). */
  onRetry?: (message: string) => void
  /** Attempts of one page before giving up on 429s. @default 5 */
  attempts?: number
  /** Size cap and timeouts of each call (docs/migrating.md "A broken or hostile API"). */
  limits?: ToolLimits
}

interface RewardfulPage<T> {
  pagination?: { next_page?: number | null }
  data?: T[]
}

const PAGE_SIZE = 100

export function rewardfulClient(options: RewardfulClientOptions) {
  const base = baseUrl(options.apiUrl ?? REWARDFUL_API_URL, 'Rewardful')
  const request = {
    tool: 'Rewardful',
    headers: { authorization: `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}` },
    keyHint: 'use the API Secret from Company Settings',
    onRetry: options.onRetry,
    attempts: options.attempts,
    origin: new URL(base).origin,
    limits: options.limits,
  }

  async function page<T>(path: string, pageNumber: number, extra: Record<string, string>): Promise<RewardfulPage<T>> {
    const url = new URL(`${base}${path}`)
    url.searchParams.set('page', String(pageNumber))
    url.searchParams.set('limit', String(PAGE_SIZE))
    for (const [key, value] of Object.entries(extra)) url.searchParams.append(key, value)
    return (await getJson(url, `${path} page ${pageNumber}`, request)).body as RewardfulPage<T>
  }

  return {
    /** Every object of a list endpoint, page after page. */
    async *list<T>(path: string, extra: Record<string, string> = {}): AsyncIterable<T> {
      const guard = pageGuard('Rewardful', path, (message) => new ImportSourceError(message))
      for (let pageNumber: number | null | undefined = 1; pageNumber; ) {
        const body: RewardfulPage<T> = await page<T>(path, pageNumber, extra)
        if (!Array.isArray(body?.data)) throw new ImportSourceError(`Rewardful answered ${path} page ${pageNumber} without a data list`)
        const next: number | null | undefined = body.pagination?.next_page
        yield* guard.fresh(pageNumber, body.data, next != null)
        if (next != null && next <= pageNumber) throw new ImportSourceError(`Rewardful's next_page on ${path} does not move forward`)
        pageNumber = next
      }
    },
  }
}
