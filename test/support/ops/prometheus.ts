// A small checker of the Prometheus text exposition format (0.0.4): every sample belongs to a
// family declared by # TYPE, names and labels are well formed, values are numbers; histograms
// have cumulative buckets ending in +Inf equal to _count. Returns the samples for assertions.
export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {}
  let rest = text
  while (rest.length > 0) {
    const match = LABEL.exec(rest)
    if (!match) throw new Error(`bad labels in: ${line}`)
    if (match[1]! in labels) throw new Error(`repeated label ${match[1]} in: ${line}`)
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\')
    rest = rest.slice(match[0].length)
  }
  return labels
}

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity
  if (text === '-Inf') return -Infinity
  if (text === 'NaN') return NaN
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value in: ${line}`)
  return Number(text)
}

const familyOf = (name: string, types: Map<string, string>) => {
  if (types.has(name)) return name
  const base = name.replace(/_(bucket|sum|count)$/, '')
  return types.get(base) === 'histogram' ? base : null
}

export function parsePrometheus(text: string): Sample[] {
  if (!text.endsWith('\n')) throw new Error('exposition must end with a newline')
  const types = new Map<string, string>()
  const samples: Sample[] = []
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) continue
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ')
      if (!NAME.test(name ?? '') || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type ?? '')) throw new Error(`bad TYPE line: ${line}`)
      if (types.has(name!)) throw new Error(`family declared twice: ${name}`)
      types.set(name!, type!)
      continue
    }
    const match = SAMPLE.exec(line)
    if (!match) throw new Error(`bad sample line: ${JSON.stringify(line)}`)
    if (!familyOf(match[1]!, types)) throw new Error(`sample without a TYPE: ${line}`)
    samples.push({ name: match[1]!, labels: parseLabels(match[2] ?? '', line), value: parseValue(match[3]!, line) })
  }
  checkHistograms(samples, types)
  return samples
}

function checkHistograms(samples: Sample[], types: Map<string, string>): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue
    const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>()
    for (const sample of samples) {
      if (!sample.name.startsWith(`${family}_`)) continue
      const { le, ...rest } = sample.labels
      const key = JSON.stringify(rest)
      const entry = series.get(key) ?? { buckets: [] }
      series.set(key, entry)
      if (sample.name === `${family}_bucket`) entry.buckets.push([parseValue(le!, 'le'), sample.value])
      if (sample.name === `${family}_count`) entry.count = sample.value
    }
    for (const [key, { buckets, count }] of series) {
      for (let index = 1; index < buckets.length; index++) {
        if (buckets[index]![0] <= buckets[index - 1]![0] || buckets[index]![1] < buckets[index - 1]![1]) throw new Error(`${family} ${key}: buckets not cumulative`)
      }
      if (buckets.at(-1)?.[0] !== Infinity || buckets.at(-1)?.[1] !== count) throw new Error(`${family} ${key}: +Inf bucket must equal _count`)
    }
  }
}

/** The value of the one sample with this name and these labels (a subset match). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`)
  return found[0]?.value
}

/** The request metrics every surface has, one series each (server/observe.ts). */
export const REQUEST_SERIES = [
  'affiliate_kit_http_request_duration_seconds_bucket',
  'affiliate_kit_http_request_duration_seconds_count',
  'affiliate_kit_http_request_duration_seconds_sum',
  'affiliate_kit_http_requests_total',
]

/** The names of the samples labelled with `surface`, sorted, after the surface (so a failure names it). */
export function surfaceSeries(samples: Sample[], surface: string): string[] {
  return [surface, ...[...new Set(samples.filter((sample) => sample.labels.surface === surface).map((sample) => sample.name))].sort()]
}
