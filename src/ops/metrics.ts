// Prometheus metrics of one process: HTTP requests by surface, method, route pattern and status,
// a latency histogram per route, webhook delivery attempts by outcome, the outbox backlog (read
// at scrape time) and, when asked, the process's own (process-metrics.ts). Rendered in the
// Prometheus text exposition format 0.0.4. The request counters are kept here rather than in
// prom-client: a micro-benchmark measured its labelled observe 2.5 to 4.5 times slower.

/** What became of one delivery attempt: sent, failed with another attempt scheduled, or given up. */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed'

export interface Metrics {
  /** One answered request; `route` is the route pattern (never the raw path); `surface` defaults to `api`. */
  observeRequest(method: string, route: string, status: number, seconds: number, surface?: string): void
  observeDelivery(outcome: DeliveryOutcome): void
  /** The exposition text; `backlog` (deliveries pending or being sent) is left out when null. */
  render(gauges: { backlog: number | null }): Promise<string>
}

/** The embedded database's disk (adapters/pglite/disk-space.ts), read at scrape time. */
export interface DiskReading {
  freeBytes: number
  minFreeBytes: number
  /** Writes are refused now (under minFreeBytes free). */
  low: boolean
  /** Under twice minFreeBytes free. */
  short: boolean
  /** Writes refused since the start. */
  refused: number
}

export interface MetricsOptions {
  /** The embedded database's disk, exposed as `affiliate_kit_storage_disk_*`. */
  disk?: () => DiskReading
  /**
   * Also expose the process's CPU time, memory, open files, event-loop lag and garbage-collection
   * pauses (prom-client's default metrics: `process_*`, `nodejs_*`). Collected from the call on,
   * for the life of the process. @default false
   */
  process?: boolean
}

/** Latency bucket bounds in seconds. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const OUTCOMES: DeliveryOutcome[] = ['succeeded', 'retrying', 'failed']

interface Histogram {
  labels: string
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: number[]
  sum: number
}

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const labelText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([name, value]) => `${name}="${escape(value)}"`)
    .join(',')

function header(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  // Loaded only when asked for: prom-client takes a noticeable time to load.
  const processMetrics = options.process ? import('./process-metrics.js').then((module) => module.processMetrics()) : null
  processMetrics?.catch(() => {}) // reported by render
  const requests = new Map<string, { labels: string; count: number }>()
  const latencies = new Map<string, Histogram>()
  const deliveries: Record<DeliveryOutcome, number> = { succeeded: 0, retrying: 0, failed: 0 }

  return {
    observeRequest(method, route, status, seconds, surface = 'api') {
      const routeKey = `${surface} ${method} ${route}`
      const key = `${routeKey} ${status}`
      let counter = requests.get(key)
      if (!counter) requests.set(key, (counter = { labels: labelText({ surface, method, route, status: String(status) }), count: 0 }))
      counter.count++
      let histogram = latencies.get(routeKey)
      if (!histogram) latencies.set(routeKey, (histogram = { labels: labelText({ surface, method, route }), counts: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0 }))
      let index = 0
      while (index < BUCKETS.length && seconds > BUCKETS[index]!) index++
      histogram.counts[index]!++
      histogram.sum += seconds
    },

    observeDelivery(outcome) {
      deliveries[outcome]++
    },

    async render({ backlog }) {
      let text = header('affiliate_kit_http_requests_total', 'counter', 'HTTP requests answered, by surface, method, route pattern and status.')
      for (const { labels, count } of requests.values()) text += `affiliate_kit_http_requests_total{${labels}} ${count}\n`
      text += header('affiliate_kit_http_request_duration_seconds', 'histogram', 'Time from receiving a request to its answer, by surface, method and route pattern.')
      for (const { labels, counts, sum } of latencies.values()) {
        let cumulative = 0
        for (let index = 0; index < BUCKETS.length; index++) {
          cumulative += counts[index]!
          text += `affiliate_kit_http_request_duration_seconds_bucket{${labels},le="${BUCKETS[index]}"} ${cumulative}\n`
        }
        cumulative += counts[BUCKETS.length]!
        text += `affiliate_kit_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${cumulative}\n`
        text += `affiliate_kit_http_request_duration_seconds_sum{${labels}} ${sum}\n`
        text += `affiliate_kit_http_request_duration_seconds_count{${labels}} ${cumulative}\n`
      }
      text += header(
        'affiliate_kit_webhook_delivery_attempts_total',
        'counter',
        'Webhook delivery attempts made by this process, by outcome: succeeded, retrying (failed, another attempt scheduled), failed (no attempt left).',
      )
      for (const outcome of OUTCOMES) text += `affiliate_kit_webhook_delivery_attempts_total{outcome="${outcome}"} ${deliveries[outcome]}\n`
      if (backlog !== null) {
        text += header('affiliate_kit_webhook_outbox_backlog', 'gauge', 'Webhook deliveries waiting to be sent or being sent, in every project of the storage.')
        text += `affiliate_kit_webhook_outbox_backlog ${backlog}\n`
      }
      const disk = options.disk?.()
      if (disk && Number.isFinite(disk.freeBytes)) {
        text += header('affiliate_kit_storage_disk_free_bytes', 'gauge', "Free space on the embedded database's disk.")
        text += `affiliate_kit_storage_disk_free_bytes ${disk.freeBytes}\n`
        text += header('affiliate_kit_storage_disk_min_free_bytes', 'gauge', 'Writes are refused (507) while the free space is under this.')
        text += `affiliate_kit_storage_disk_min_free_bytes ${disk.minFreeBytes}\n`
        text += header('affiliate_kit_storage_disk_space_low', 'gauge', '1 while the free space is under twice the minimum: writes will soon be refused.')
        text += `affiliate_kit_storage_disk_space_low ${disk.short ? 1 : 0}\n`
        text += header('affiliate_kit_storage_disk_writes_refused', 'gauge', '1 while writes are refused for want of disk space.')
        text += `affiliate_kit_storage_disk_writes_refused ${disk.low ? 1 : 0}\n`
        text += header('affiliate_kit_storage_disk_refused_writes_total', 'counter', 'Writes refused for want of disk space since the start.')
        text += `affiliate_kit_storage_disk_refused_writes_total ${disk.refused}\n`
      }
      if (processMetrics) text += await (await processMetrics)()
      return text
    },
  }
}
