// The axes of the pages' server-rendered charts (the portal's activity chart, the analytics
// charts): a count axis topped at a round number, and the few buckets that label the time axis.

/** How many buckets label the time axis, the first and the last included. */
const TIME_LABELS = 5

/** The top of the count axis: the smallest of 2, 4, 6, 8, 10, 20, 40... at or above `peak`, so its half is whole too. */
export function axisTop(peak: number): number {
  for (let scale = 1; ; scale *= 10) {
    for (const step of [2, 4, 6, 8, 10]) if (step * scale >= peak) return step * scale
  }
}

/** The indexes of the buckets that label the time axis: evenly spread, the first and the last included. */
export function labelledBuckets(count: number): number[] {
  if (count <= TIME_LABELS) return [...Array(count).keys()]
  return [...Array(TIME_LABELS).keys()].map((n) => Math.round((n * (count - 1)) / (TIME_LABELS - 1)))
}
