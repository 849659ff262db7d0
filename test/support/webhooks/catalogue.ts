// The webhook catalogue's samples (docs/webhooks.md "Payloads"): one JSON block per event type.
import { readFileSync } from 'node:fs'

const DOCUMENT = new URL('../../../docs/webhooks.md', import.meta.url)

/** Each documented sample by its event type, as written (JSON text). */
export function documentedSamples(): Map<string, string> {
  const blocks = [...readFileSync(DOCUMENT, 'utf8').matchAll(/```json\n(\{"event":"([^"]+)".*\})\n```/g)]
  return new Map(blocks.map((block) => [block[2]!, block[1]!]))
}
