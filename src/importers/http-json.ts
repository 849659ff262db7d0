// One GET of a tool's REST API as every source reads it: JSON, 429s retried after Retry-After (or
// 1, 2, 4... seconds) with each retry told on one line, a refused key and any other failure one
// ImportSourceError. Each tool's folder adds its own authentication and paging.
import { ImportSourceError } from './source.js'

export interface ToolRequestOptions {
  /** The tool's name in messages: `Tolt`. */
  tool: string
  headers: Record<string, string>
  /** What to do about a 401 or 403, said when the tool refuses the key. */
  keyHint: string
  onRetry?: ((message: string) => void) | undefined
  /** Attempts of one request before giving up on 429s. @default 5 */
  attempts?: number | undefined
}

const MAX_WAIT_SECONDS = 60

/** GETs `url`; resolves with the parsed body and the response headers. `label` names the request in messages. */
export async function getJson(url: URL, label: string, options: ToolRequestOptions): Promise<{ body: unknown; headers: Headers }> {
  const attempts = options.attempts ?? 5
  for (let attempt = 1; ; attempt += 1) {
    let response: Response
    try {
      response = await fetch(url, { headers: { accept: 'application/json', ...options.headers } })
    } catch (error) {
      throw new ImportSourceError(`cannot reach ${options.tool} at ${url.origin}: ${(error as Error).cause ?? (error as Error).message}`)
    }
    if (response.status === 429 && attempt < attempts) {
      const wait = Math.min(retryAfterSeconds(response.headers.get('retry-after'), attempt), MAX_WAIT_SECONDS)
      await response.body?.cancel()
      options.onRetry?.(`${options.tool} rate limit (429) on ${label}: retry ${attempt} of ${attempts - 1} in ${wait}s`)
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
      continue
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel()
      throw new ImportSourceError(`${options.tool} refused the API key (${response.status}): ${options.keyHint}`)
    }
    if (!response.ok) throw new ImportSourceError(`${options.tool} answered ${response.status} on ${label}: ${(await response.text()).slice(0, 200)}`)
    try {
      return { body: await response.json(), headers: response.headers }
    } catch {
      throw new ImportSourceError(`${options.tool} answered ${label} with something other than JSON`)
    }
  }
}

/** Seconds to wait: Retry-After as seconds or an HTTP date, else 1, 2, 4... */
export function retryAfterSeconds(header: string | null, attempt: number): number {
  if (header !== null) {
    const seconds = Number(header)
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds)
    const at = Date.parse(header)
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000))
  }
  return 2 ** (attempt - 1)
}

/** The base URL without trailing slashes, checked to be http(s). */
export function baseUrl(apiUrl: string, tool: string): string {
  if (!/^https?:\/\//.test(apiUrl)) throw new ImportSourceError(`${tool}'s API URL must be http(s); got "${apiUrl}"`)
  return apiUrl.replace(/\/+$/, '')
}

/** Minor units from a number or a numeric string (`"4900"`); NaN otherwise, which the program refuses. */
export function minorUnits(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value)
  return Number.NaN
}
