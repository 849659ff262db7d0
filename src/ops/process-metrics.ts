// The process's own metrics for /metrics: CPU time, memory, open files, event-loop lag and
// garbage-collection pauses by kind, from prom-client's default collectors (the process_* and
// nodejs_* names that dashboards for Node expect). Loaded only by createMetrics({ process: true }).
import { collectDefaultMetrics, Registry } from 'prom-client'

/** Starts collecting; the returned function renders what was collected, in the text format. */
export function processMetrics(): () => Promise<string> {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  // prom-client separates families with blank lines, which the exposition around them has not,
  // and writes a value not yet measured as `Nan`, where the format says `NaN`.
  return async () =>
    (await registry.metrics()).replace(/\n{2,}/g, '\n').replace(/ Nan$/gm, ' NaN')
}
