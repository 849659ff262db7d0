// The report's last step: the ledgers of the affiliates it names, read back from the program after
// the import, by email, CHUNK affiliates a read (the table per affiliate beside the tool's figures).
import type { ImportRun } from './import-run.js'
import { CHUNK } from './record-chunks.js'

export async function ledgers({ program, known }: ImportRun, emails: string[]): Promise<Map<string, { total: string; unpaid: string }>> {
  const ids = new Map([...known.values()].flatMap(({ id, email }) => (id === null ? [] : [[email, id] as const])))
  const found = new Map<string, { total: string; unpaid: string }>()
  const wanted = emails.flatMap((email) => ids.get(email) ?? [])
  for (let from = 0; from < wanted.length; from += CHUNK) {
    for (const { email, total, unpaid } of (await program.imports.earnings(wanted.slice(from, from + CHUNK))).values()) found.set(email, { total, unpaid })
  }
  return found
}
