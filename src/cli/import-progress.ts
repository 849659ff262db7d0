// What `affiliate-kit import` shows while it runs: a progress bar per entity on a terminal, plain
// lines otherwise (a pipe, a log file, CI), so a log is not filled with redraws.
import cliProgress from 'cli-progress'
import type { ImportEntity } from '../importers/report.js'

/** Records between two plain progress lines of one entity. */
const PLAIN_EVERY = 1000

export interface ImportProgress {
  /** After each record: how many were read so far, of `total` when the count is known. */
  record(entity: ImportEntity, read: number, total: number | null): void
  /** When an entity is read to its end. */
  done(entity: ImportEntity, read: number): void
}

export function importProgress(label: string, log: (line: string) => void, stream: NodeJS.WriteStream = process.stderr): ImportProgress {
  if (!stream.isTTY) {
    return {
      record(entity, read, total) {
        if (read % PLAIN_EVERY === 0) log(`${entity}: ${read}${total === null ? '' : ` of ${total}`} read from ${label}`)
      },
      done: (entity, read) => log(`${entity}: ${read} read from ${label}`),
    }
  }
  let bar: { entity: ImportEntity; bar: cliProgress.SingleBar } | null = null
  return {
    record(entity, read, total) {
      if (bar?.entity !== entity) {
        bar?.bar.stop()
        // Records of a list read page after page have no count until its end: a counter then.
        const format = total === null ? `${entity} {value} read from ${label}` : `${entity} [{bar}] {value}/{total} {percentage}% | {eta_formatted} left`
        bar = { entity, bar: new cliProgress.SingleBar({ format, stream, hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic) }
        bar.bar.start(total ?? 0, 0)
      }
      bar.bar.update(read)
    },
    done(entity, read) {
      if (bar?.entity === entity) {
        bar.bar.update(read)
        bar.bar.stop()
        bar = null
      } else log(`${entity}: ${read} read from ${label}`)
    },
  }
}
