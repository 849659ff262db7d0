// How importProgram reads a source's records: in chunks of CHUNK, each chunk written in one go
// where it can be (program.imports), and what a chunk leaves done record by record, each its own
// attempt, with the progress told after each record and each entity.
import type { ImportEntity } from '../report.js'
import { attempt, type ImportRun } from './import-run.js'

/** Records written together (program.imports): one transaction of a few statements each. */
export const CHUNK = 1000

/** What a chunk leaves of each record: its remaining work, or null when it is done. */
export type LeftWork = Array<(() => Promise<void>) | null>

/** Reads the records in chunks: `chunk` does what it can for a whole chunk and leaves each record's remaining work, run as its own attempt. */
export async function inChunks<T>(
  run: ImportRun,
  entity: ImportEntity,
  records: AsyncIterable<T>,
  chunk: (records: T[]) => Promise<LeftWork>,
  id: (record: T) => string,
  total: number | null = null,
): Promise<void> {
  let read = 0
  for await (const records_ of chunks(records, CHUNK)) {
    const left = await chunk(records_)
    for (const [index, record] of records_.entries()) {
      read += 1
      const work = left[index]
      if (work) await attempt(run, entity, id(record), work)
      run.options.onRecord?.(entity, read, total)
    }
  }
  run.options.onProgress?.(entity, read)
}

/** A chunk done one record at a time. */
export const oneByOne =
  <T>(work: (record: T) => Promise<void>) =>
  async (records: T[]): Promise<LeftWork> =>
    records.map((record) => () => work(record))

export async function* iterate<T>(items: T[]): AsyncIterable<T> {
  yield* items
}

async function* chunks<T>(records: AsyncIterable<T>, size: number): AsyncIterable<T[]> {
  let chunk: T[] = []
  for await (const record of records) {
    chunk.push(record)
    if (chunk.length === size) {
      yield chunk
      chunk = []
    }
  }
  if (chunk.length > 0) yield chunk
}
