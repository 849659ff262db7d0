// Rewardful's REST API as the importer reads it: HTTP Basic with the API secret as the user name,
// pages of `data` followed through `pagination.next_page`, 429s retried after Retry-After.
// https://developers.rewardful.com/rest-api/overview
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
}

interface RewardfulPage<T> {
  pagination?: { next_page?: number | null }
  data?: T[]
}

const PAGE_SIZE = 100
const MAX_WAIT_SECONDS = 60

export function rewardfulClient(options: RewardfulClientOptions) {
  const base = (options.apiUrl ?? REWARDFUL_API_URL).replace(/\/+$/, '')
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}`
  const attempts = options.attempts ?? 5

  async function page<T>(path: string, pageNumber: number, extra: Record<string, string>): Promise<RewardfulPage<T>> {
    const url = new URL(`${base}${path}`)
    url.searchParams.set('page', String(pageNumber))
    url.searchParams.set('limit', String(PAGE_SIZE))
    for (const [key, value] of Object.entries(extra)) url.searchParams.append(key, value)
    for (let attempt = 1; ; attempt += 1) {
      let response: Response
      try {
        response = await fetch(url, { headers: { authorization, accept: 'application/json' } })
      } catch (error) {
        throw new ImportSourceError(`cannot reach Rewardful at ${base}: ${(error as Error).cause ?? (error as Error).message}`)
      }
      if (response.status === 429 && attempt < attempts) {
        const wait = Math.min(retryAfterSeconds(response.headers.get('retry-after'), attempt), MAX_WAIT_SECONDS)
        await response.body?.cancel()
        options.onRetry?.(`Rewardful rate limit (429) on ${path} page ${pageNumber}: retry ${attempt} of ${attempts - 1} in ${wait}s`)
        await new Promise((resolve) => setTimeout(resolve, wait * 1000))
        continue
      }
      if (response.status === 401) throw new ImportSourceError('Rewardful refused the API key (401): use the API Secret from Company Settings')
      if (!response.ok) throw new ImportSourceError(`Rewardful answered ${response.status} on ${path} page ${pageNumber}: ${(await response.text()).slice(0, 200)}`)
      try {
        return (await response.json()) as RewardfulPage<T>
      } catch {
        throw new ImportSourceError(`Rewardful answered ${path} page ${pageNumber} with something other than JSON`)
      }
    }
  }

  return {
    /** Every object of a list endpoint, page after page. */
    async *list<T>(path: string, extra: Record<string, string> = {}): AsyncIterable<T> {
      for (let pageNumber: number | null | undefined = 1; pageNumber; ) {
        const body: RewardfulPage<T> = await page<T>(path, pageNumber, extra)
        if (!Array.isArray(body.data)) throw new ImportSourceError(`Rewardful answered ${path} page ${pageNumber} without a data list`)
        yield* body.data
        const next: number | null | undefined = body.pagination?.next_page
        if (next != null && next <= pageNumber) throw new ImportSourceError(`Rewardful's next_page on ${path} does not move forward`)
        pageNumber = next
      }
    },
  }
}

/** Seconds to wait: Retry-After as seconds or an HTTP date, else 1, 2, 4... */
function retryAfterSeconds(header: string | null, attempt: number): number {
  if (header !== null) {
    const seconds = Number(header)
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds)
    const at = Date.parse(header)
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000))
  }
  return 2 ** (attempt - 1)
}
