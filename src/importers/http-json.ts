// One GET of a tool's REST API as every source reads it: JSON, 429s retried after Retry-After (or
// 1, 2, 4... seconds) with each retry told on one line, a refused key and any other failure one
// ImportSourceError. A hostile or broken API cannot take the key elsewhere or hold the import:
// requests go only to the configured origin (a redirect or next-page link to another origin is
// refused, nothing is sent there), answers are read up to a size cap, and each call has a total
// and an idle timeout (docs/migrating.md "A broken or hostile API"). Each tool's folder adds its
// own authentication and paging.
import { ImportSourceError } from './source.js'

export interface ToolLimits {
  /** Largest answer read, in bytes; a larger one stops the import. @default 67108864 (64 MiB) */
  maxResponseBytes?: number | undefined
  /** Longest one call may take, from the request to the last byte of the answer. @default 120000 (2 minutes) */
  timeoutMs?: number | undefined
  /** Longest wait for the answer's next bytes (its headers, then each chunk of the body). @default 30000 */
  idleTimeoutMs?: number | undefined
}

export const DEFAULT_TOOL_LIMITS = { maxResponseBytes: 64 * 1024 * 1024, timeoutMs: 120_000, idleTimeoutMs: 30_000 } as const

export interface ToolRequestOptions {
  /** The tool's name in messages: `Tolt`. */
  tool: string
  headers: Record<string, string>
  /** What to do about a 401 or 403, said when the tool refuses the key. */
  keyHint: string
  onRetry?: ((message: string) => void) | undefined
  /** Attempts of one request before giving up on 429s. @default 5 */
  attempts?: number | undefined
  /** The only origin requests (and so the key) go to: the configured API URL's. */
  origin: string
  limits?: ToolLimits | undefined
}

const MAX_WAIT_SECONDS = 60
const MAX_REDIRECTS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** GETs `url`; resolves with the parsed body and the response headers. `label` names the request in messages. */
export async function getJson(url: URL, label: string, options: ToolRequestOptions): Promise<{ body: unknown; headers: Headers }> {
  const attempts = options.attempts ?? 5
  for (let attempt = 1; ; attempt += 1) {
    const { response, text } = await call(url, label, options)
    if (response.status === 429 && attempt < attempts) {
      const wait = Math.min(retryAfterSeconds(response.headers.get('retry-after'), attempt), MAX_WAIT_SECONDS)
      options.onRetry?.(`${options.tool} rate limit (429) on ${label}: retry ${attempt} of ${attempts - 1} in ${wait}s`)
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
      continue
    }
    if (response.status === 401 || response.status === 403) throw new ImportSourceError(`${options.tool} refused the API key (${response.status}): ${options.keyHint}`)
    if (!response.ok) throw new ImportSourceError(`${options.tool} answered ${response.status} on ${label}: ${text.slice(0, 200)}`)
    try {
      return { body: JSON.parse(text), headers: response.headers }
    } catch {
      throw new ImportSourceError(`${options.tool} answered ${label} with something other than JSON`)
    }
  }
}

/** One request and its whole answer as text, following redirects within the origin, under the limits. */
async function call(url: URL, label: string, options: ToolRequestOptions): Promise<{ response: Response; text: string }> {
  const limits = { ...DEFAULT_TOOL_LIMITS, ...definedOf(options.limits) }
  const controller = new AbortController()
  let stopped: string | null = null
  const stop = (why: string) => {
    stopped ??= why
    controller.abort()
  }
  const total = setTimeout(() => stop(`did not finish answering ${label} within ${seconds(limits.timeoutMs)}`), limits.timeoutMs)
  let idle: NodeJS.Timeout | undefined
  const alive = () => {
    clearTimeout(idle)
    idle = setTimeout(() => stop(`sent nothing for ${seconds(limits.idleTimeoutMs)} while answering ${label}`), limits.idleTimeoutMs)
  }
  const failed = (error: unknown): never => {
    if (error instanceof ImportSourceError) throw error
    if (stopped) throw new ImportSourceError(`${options.tool} ${stopped}: stopped (each call has ${seconds(limits.timeoutMs)} in all and ${seconds(limits.idleTimeoutMs)} between bytes)`)
    throw new ImportSourceError(`cannot reach ${options.tool} at ${url.origin}: ${(error as Error).cause ?? (error as Error).message}`)
  }
  try {
    let target = url
    for (let redirects = 0; ; redirects += 1) {
      if (target.origin !== options.origin) {
        throw new ImportSourceError(
          `${options.tool} sent ${label} to ${target.origin}, another origin than the API's (${options.origin}): not followed, the API key is only ever sent to ${options.origin}; set --api-url to where the API is now`,
        )
      }
      alive()
      const response = await fetch(target, { headers: { accept: 'application/json', ...options.headers }, redirect: 'manual', signal: controller.signal }).catch(failed)
      const location = response.headers.get('location')
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel().catch(() => {})
        if (redirects === MAX_REDIRECTS) throw new ImportSourceError(`${options.tool} redirected ${label} more than ${MAX_REDIRECTS} times: stopped`)
        target = new URL(location, target)
        continue
      }
      const text = await readCapped(response, limits.maxResponseBytes, alive).catch(failed)
      if (text === null) throw new ImportSourceError(`${options.tool}'s answer to ${label} is larger than ${bytes(limits.maxResponseBytes)}: stopped reading it`)
      return { response, text }
    }
  } finally {
    clearTimeout(total)
    clearTimeout(idle)
  }
}

/** The body as text, or null when it is larger than `max` bytes (then no more of it is read). */
async function readCapped(response: Response, max: number, alive: () => void): Promise<string | null> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {})
    return null
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    alive()
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const definedOf = (limits: ToolLimits | undefined) => Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined)) as Partial<typeof DEFAULT_TOOL_LIMITS>
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`)
const bytes = (n: number) => (n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : `${n} bytes`)

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
